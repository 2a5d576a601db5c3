//! The text as pasted against the text as read: what the repair of a
//! damaged paste undid ([`Undone`], [`Damage`]) and, for each repaired line,
//! where it starts in the paste ([`LineMap`]). The repair itself is
//! [`super::unwrap`]; everything that reports lines as pasted (the evidence,
//! the playground) reads these types, which depend on nothing.

/// What sort of damage was undone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum Damage {
    /// A log prefix before lines.
    LogPrefix,
    /// Prompt characters before lines.
    Prompt,
    /// A Python string repr: literal `\n`, escaped quotes, the quotes around.
    Repr,
    /// Lines hard-wrapped at a fixed width.
    Wrapped,
}

impl Damage {
    /// The name used in JSON and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Damage::LogPrefix => "log-prefix",
            Damage::Prompt => "prompt",
            Damage::Repr => "repr",
            Damage::Wrapped => "wrapped",
        }
    }
}

/// One kind of damage undone, with how many pasted lines it touched.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Undone {
    /// What was undone.
    pub what: Damage,
    /// How many lines of the paste it touched.
    pub lines: usize,
    /// The first of them (1-based, in the paste).
    pub first_line: usize,
    /// What was done, in a sentence.
    pub note: String,
}

/// For each line of the repaired text, where it starts in the paste.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineMap {
    /// (1-based pasted line, 0-based character column it starts at there).
    starts: Vec<(usize, usize)>,
}

impl LineMap {
    /// The map of repaired lines starting at these (1-based pasted line,
    /// 0-based character column) places, in repaired-line order.
    pub(crate) fn from_starts(starts: Vec<(usize, usize)>) -> Self {
        LineMap { starts }
    }

    /// The pasted line and start column of repaired line `n` (1-based);
    /// `(n, 0)` past the end.
    pub fn get(&self, n: usize) -> (usize, usize) {
        n.checked_sub(1)
            .and_then(|i| self.starts.get(i))
            .copied()
            .unwrap_or((n, 0))
    }

    /// The repaired line holding pasted line `line` at 0-based character
    /// column `col`: its number (1-based) and the column it starts at on the
    /// pasted line, i.e. the last repaired line that starts on `line` at or
    /// before `col`. `None` when no repaired line starts there (nothing
    /// moved, or `col` lies in a removed prefix).
    pub fn locate(&self, line: usize, col: usize) -> Option<(usize, usize)> {
        let i = self.starts.partition_point(|&s| s <= (line, col));
        let (p, c) = *self.starts.get(i.checked_sub(1)?)?;
        (p == line).then_some((i, c))
    }

    /// How many repaired lines are mapped.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }
}
