//! The options of a question whose answers come from a vocabulary table
//! (`classify`'s kinds, `backend`'s backends): the authored `choices`
//! parsed once against the table, with their labels and notes.

use super::cx::Cx;
use super::parts::Pairs;
use crate::analysis::{Backend, Kind};

/// An entry of a vocabulary that questions offer by name.
pub(super) trait Named: Copy + PartialEq {
    /// The name exercise files and option ids use (`hlo-optimized`, `cpu`).
    fn name(self) -> &'static str;
}

impl Named for Kind {
    fn name(self) -> &'static str {
        self.as_str()
    }
}

impl Named for Backend {
    fn name(self) -> &'static str {
        self.as_str()
    }
}

/// The options offered, from `table` (`(entry, label, note)` rows): the
/// authored `choices` (names, parsed here) or every row, in table order;
/// option labels (`label` of the entry and its row's label) and option
/// notes. Every problem is reported: a name the
/// table lacks, fewer than two choices, the right answer left out.
pub(super) fn offered<T: Named>(
    choices: Option<&Vec<String>>,
    table: &[(T, &str, &str)],
    right: T,
    label: impl Fn(T, &str) -> String,
    cx: &mut Cx<'_>,
) -> Option<(Pairs, Pairs)> {
    let all: Vec<&str> = table.iter().map(|(n, _, _)| n.name()).collect();
    let picked: Vec<Option<T>> = match choices {
        Some(c) => c
            .iter()
            .map(|n| {
                let found = table.iter().find(|(t, _, _)| t.name() == n).map(|r| r.0);
                if found.is_none() {
                    cx.error(
                        "choices",
                        format!("`{n}` is not a choice this question type knows"),
                        &format!("use some of: {}", all.join(", ")),
                    );
                }
                found
            })
            .collect(),
        None => table.iter().map(|(t, _, _)| Some(*t)).collect(),
    };
    let mut ok = picked.iter().all(Option::is_some);
    let picked: Vec<T> = picked.into_iter().flatten().collect();
    if ok && picked.len() < 2 {
        cx.error(
            "choices",
            "a question needs at least two choices",
            "add another choice or leave `choices` out for all of them",
        );
        ok = false;
    }
    if ok && !picked.contains(&right) {
        cx.error(
            "choices",
            format!(
                "the right answer, `{}`, is not among the choices",
                right.name()
            ),
            "add it to `choices`",
        );
        ok = false;
    }
    if !ok {
        return None;
    }
    let rows = || table.iter().filter(|(t, _, _)| picked.contains(t));
    let options = rows()
        .map(|(t, l, _)| (t.name().to_owned(), label(*t, l)))
        .collect();
    let notes = rows()
        .map(|(t, _, why)| (t.name().to_owned(), (*why).to_owned()))
        .collect();
    Some((options, notes))
}

/// The label of `entry` in `table` (its name where the table has no row,
/// which a test of every table rules out).
pub(super) fn label_of<'t, T: Named>(table: &'t [(T, &'t str, &'t str)], entry: T) -> &'t str {
    table
        .iter()
        .find(|(t, _, _)| *t == entry)
        .map_or(entry.name(), |r| r.1)
}
