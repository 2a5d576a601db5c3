//! The types every part of the reader shares: how often a finding is
//! paid, the lines it rests on, the finding itself, and the byte words.

use super::catalogue::F;

/// How often a finding's kernel runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Runs {
    /// Once per run of the module.
    Once,
    /// The trip count its loop's `backend_config` states.
    Stated(u64),
    /// The trip count its loop's counter implies.
    Derived(u64),
    /// Not known from the text (a loop body pasted without its loop, a
    /// loop whose trip count the text does not fix).
    Unknown,
}

impl Runs {
    /// How many times, when known.
    pub fn count(self) -> Option<u64> {
        match self {
            Runs::Once => Some(1),
            Runs::Stated(n) | Runs::Derived(n) => Some(n),
            Runs::Unknown => None,
        }
    }

    /// The phrase the outputs print.
    pub fn sentence(self) -> String {
        match self {
            Runs::Once => "once per run".to_owned(),
            Runs::Stated(n) => format!("{n} trips, as its `known_trip_count` states"),
            Runs::Derived(n) => format!("{n} trips, from its counter and bound"),
            Runs::Unknown => "how many trips is not in the text".to_owned(),
        }
    }

    /// The name in JSON.
    pub fn basis(self) -> &'static str {
        match self {
            Runs::Once => "once",
            Runs::Stated(_) => "known_trip_count",
            Runs::Derived(_) => "derived",
            Runs::Unknown => "unknown",
        }
    }
}

/// One line a finding rests on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// 1-based, as pasted.
    pub line: usize,
    /// The instruction on it (empty for a memory text's line).
    pub name: String,
    /// What it shows.
    pub note: String,
}

/// One finding.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// Its row of the catalogue.
    pub what: F,
    /// Which input it is in (0-based).
    pub input: usize,
    /// What was found, with its figures.
    pub summary: String,
    /// The bytes it concerns (a kernel's result, the memory asked for).
    pub bytes: Option<u64>,
    /// How often it is paid.
    pub runs: Runs,
    /// The lines it rests on.
    pub evidence: Vec<Line>,
    /// What to try for this case, where the detector can say more than
    /// the catalogue's row.
    pub try_this: Option<String>,
}

impl Finding {
    /// The weight it is ranked by: bytes times runs (once where unknown).
    pub fn weight(&self) -> u128 {
        let runs = self.runs.count().unwrap_or(1).max(1);
        u128::from(self.bytes.unwrap_or(0)) * u128::from(runs)
    }
}

/// `6.00 MiB`: bytes with a binary prefix.
pub fn human(v: u64) -> String {
    let units = [
        (1u64 << 40, "TiB"),
        (1 << 30, "GiB"),
        (1 << 20, "MiB"),
        (1 << 10, "KiB"),
    ];
    for (scale, u) in units {
        if v >= scale {
            return format!("{:.2} {u}", v as f64 / scale as f64);
        }
    }
    format!("{v} B")
}
