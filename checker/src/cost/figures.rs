//! The figures of the ledger: flops, transcendentals and bytes accessed,
//! each a known sum and a count of what XLA could not cost.
//!
//! XLA adds -1 to a figure for each instruction it cannot cost (a custom
//! call), so its module figure is `known - unknown`; DumpLab keeps both
//! parts and never prints the -1 ([`Figure::xla`] gives XLA's number, for
//! the oracle test).

use std::ops::{Add, AddAssign};

/// One figure: a known sum and the instructions that could not be costed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Figure {
    /// The sum of what is known.
    pub known: f64,
    /// How many instructions XLA could not cost for this figure (each adds
    /// -1 to XLA's own number).
    pub unknown: u64,
}

impl Figure {
    /// A known amount.
    pub fn of(known: f64) -> Figure {
        Figure { known, unknown: 0 }
    }

    /// One instruction XLA cannot cost.
    pub fn unknown() -> Figure {
        Figure {
            known: 0.0,
            unknown: 1,
        }
    }

    /// XLA's number: the known sum minus one per unknown instruction.
    pub fn xla(self) -> f64 {
        self.known - self.unknown as f64
    }

    /// Times a count (a reducer applied `n` times).
    pub fn times(self, n: f64) -> Figure {
        Figure {
            known: self.known * n,
            unknown: (self.unknown as f64 * n) as u64,
        }
    }

    /// The larger by XLA's number (a conditional's branches).
    pub fn max(self, other: Figure) -> Figure {
        if other.xla() > self.xla() {
            other
        } else {
            self
        }
    }
}

impl Add for Figure {
    type Output = Figure;
    fn add(self, o: Figure) -> Figure {
        Figure {
            known: self.known + o.known,
            unknown: self.unknown.saturating_add(o.unknown),
        }
    }
}

impl AddAssign for Figure {
    fn add_assign(&mut self, o: Figure) {
        *self = *self + o;
    }
}

/// The three figures of an instruction, a computation or a module.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Figures {
    /// Floating-point (and integer) operations, transcendentals apart.
    pub flops: Figure,
    /// Transcendental operations (exp, log, tanh, ...).
    pub transcendentals: Figure,
    /// Bytes read and written.
    pub bytes: Figure,
}

impl Figures {
    /// Flops and transcendentals times a count; bytes left out (XLA does
    /// not copy a sub-computation's bytes into a reduce, map or scatter).
    pub fn applied(self, n: f64) -> Figures {
        Figures {
            flops: self.flops.times(n),
            transcendentals: self.transcendentals.times(n),
            bytes: Figure::default(),
        }
    }

    /// The larger of each figure.
    pub fn max(self, o: Figures) -> Figures {
        Figures {
            flops: self.flops.max(o.flops),
            transcendentals: self.transcendentals.max(o.transcendentals),
            bytes: self.bytes.max(o.bytes),
        }
    }
}

impl Add for Figures {
    type Output = Figures;
    fn add(self, o: Figures) -> Figures {
        Figures {
            flops: self.flops + o.flops,
            transcendentals: self.transcendentals + o.transcendentals,
            bytes: self.bytes + o.bytes,
        }
    }
}

impl AddAssign for Figures {
    fn add_assign(&mut self, o: Figures) {
        *self = *self + o;
    }
}
