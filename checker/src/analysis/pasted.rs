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

/// For each line of the repaired text, where it starts in the paste, and
/// where its characters sit there when the repair shortened them (a repr's
/// `\"` is two pasted characters and one repaired one).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineMap {
    /// (1-based pasted line, 0-based character column it starts at there).
    starts: Vec<(usize, usize)>,
    /// Where a repaired line's characters stop following its start one for
    /// one: (1-based repaired line, 0-based repaired column, 0-based pasted
    /// column of that character), sorted, columns strictly increasing
    /// within a line; from each, the next characters follow one for one.
    jumps: Vec<(usize, usize, usize)>,
}

impl LineMap {
    /// The map of repaired lines starting at these (1-based pasted line,
    /// 0-based character column) places, in repaired-line order, with the
    /// `jumps` inside them (see [`LineMap::jumps`]'s order).
    pub(crate) fn new(starts: Vec<(usize, usize)>, jumps: Vec<(usize, usize, usize)>) -> Self {
        LineMap { starts, jumps }
    }

    /// The pasted line and start column of repaired line `n` (1-based);
    /// `(n, 0)` past the end.
    pub fn get(&self, n: usize) -> (usize, usize) {
        n.checked_sub(1)
            .and_then(|i| self.starts.get(i))
            .copied()
            .unwrap_or((n, 0))
    }

    /// The 0-based pasted column of 0-based character column `col` of
    /// repaired line `n` (a column past the line's end goes on one for one).
    pub fn pasted_col(&self, n: usize, col: usize) -> usize {
        let i = self.jumps.partition_point(|&(l, c, _)| (l, c) <= (n, col));
        match i.checked_sub(1).and_then(|i| self.jumps.get(i)) {
            Some(&(l, c, p)) if l == n => p + (col - c),
            _ => self.get(n).1 + col,
        }
    }

    /// The jumps of repaired line `n` (see [`LineMap::jumps`]).
    pub(crate) fn jumps_of(&self, n: usize) -> &[(usize, usize, usize)] {
        let from = self.jumps.partition_point(|&(l, _, _)| l < n);
        let to = self.jumps.partition_point(|&(l, _, _)| l <= n);
        self.jumps.get(from..to).unwrap_or(&[])
    }

    /// The repaired line holding pasted line `line` at 0-based character
    /// column `col`, i.e. the last repaired line that starts on `line` at
    /// or before `col`: its number (1-based) and the 0-based repaired
    /// column of the character there (a pasted character the repair
    /// dropped, the `\` of `\"`, is counted with the one it became).
    /// `None` when no repaired line starts there (nothing moved, or `col`
    /// lies in a removed prefix).
    pub fn locate(&self, line: usize, col: usize) -> Option<(usize, usize)> {
        let i = self.starts.partition_point(|&s| s <= (line, col));
        let (p, c) = *self.starts.get(i.checked_sub(1)?)?;
        if p != line {
            return None;
        }
        let jumps = self.jumps_of(i);
        let k = jumps.partition_point(|&(_, _, pc)| pc <= col);
        let (rc, pc) = match k.checked_sub(1).and_then(|k| jumps.get(k)) {
            Some(&(_, rc, pc)) => (rc, pc),
            None => (0, c),
        };
        let at = rc + (col - pc);
        // Past the next jump's column: a dropped character, counted with
        // the character before the jump.
        Some(match jumps.get(k) {
            Some(&(_, next, _)) if at >= next => (i, next.saturating_sub(1)),
            _ => (i, at),
        })
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

#[cfg(test)]
mod tests {
    use super::LineMap;

    #[test]
    fn columns_go_both_ways_across_an_escape() {
        // The paste `"ab\"cd\n  x\r\ry"` repaired: line 1 `ab"cd` from
        // pasted column 1 (its `"` at the `\`, its `c` at 5), line 2 `  xy`
        // from column 9 (its `y` at 16).
        let map = LineMap::new(vec![(1, 1), (1, 9)], vec![(1, 3, 5), (2, 3, 16)]);
        for (repaired, pasted) in [
            ((1, 0), 1),
            ((1, 2), 3),
            ((1, 3), 5),
            ((1, 4), 6),
            ((2, 2), 11),
            ((2, 3), 16),
        ] {
            assert_eq!(
                map.pasted_col(repaired.0, repaired.1),
                pasted,
                "{repaired:?}"
            );
            assert_eq!(map.locate(1, pasted), Some(repaired), "{pasted}");
        }
        // The `"` after the `\`, and `\r\r`, dropped: counted with the
        // character before.
        assert_eq!(map.locate(1, 4), Some((1, 2)));
        assert_eq!(map.locate(1, 12), Some((2, 2)));
        assert_eq!(map.locate(1, 15), Some((2, 2)));
        assert_eq!(map.locate(1, 0), None);
        assert_eq!(map.locate(2, 0), None);
    }
}
