//! The Tuples screen's columns (issue #33 column chooser): which exist, their order and which are
//! hidden, as chosen with `#` and kept in the views file's `[columns]`.

use tuplewright_records::curate::views::ColumnLayout;

/// One column of the Tuples table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Column {
    /// Status glyph and name.
    Status,
    /// Task id.
    Id,
    /// First app label.
    App,
    /// Domain label.
    Domain,
    /// Worst critic severity.
    Sev,
    /// Tags in force.
    Tags,
    /// Difficulty.
    Diff,
    /// Rounds.
    Rounds,
    /// r(gold) of the latest round.
    Gold,
    /// r(init) of the latest round.
    Init,
    /// The instruction (takes the rest of the width).
    Instruction,
}

impl Column {
    /// Every column, in the default order.
    pub const ALL: [Column; 11] = [
        Column::Status,
        Column::Id,
        Column::App,
        Column::Domain,
        Column::Sev,
        Column::Tags,
        Column::Diff,
        Column::Rounds,
        Column::Gold,
        Column::Init,
        Column::Instruction,
    ];

    /// The header (also the name in the views file).
    pub fn name(self) -> &'static str {
        match self {
            Column::Status => "status",
            Column::Id => "id",
            Column::App => "app",
            Column::Domain => "domain",
            Column::Sev => "sev",
            Column::Tags => "tags",
            Column::Diff => "diff",
            Column::Rounds => "rnd",
            Column::Gold => "r(g)",
            Column::Init => "r(i)",
            Column::Instruction => "instruction",
        }
    }

    /// The column named `name`.
    pub fn parse(name: &str) -> Option<Column> {
        Column::ALL.into_iter().find(|c| c.name() == name.trim())
    }

    /// Columns drawn only when some tuple shown has a value (they take no room when empty).
    pub fn optional(self) -> bool {
        matches!(
            self,
            Column::App | Column::Domain | Column::Sev | Column::Tags
        )
    }
}

/// The column order and visibility in force.
#[derive(Debug, Clone, PartialEq)]
pub struct Columns {
    /// Every column once, in display order, with whether it is shown.
    pub order: Vec<(Column, bool)>,
    /// True once the user chose (a saved layout): the optional columns then show on any width.
    pub chosen: bool,
}

impl Default for Columns {
    fn default() -> Self {
        Columns {
            order: Column::ALL.iter().map(|&c| (c, true)).collect(),
            chosen: false,
        }
    }
}

impl Columns {
    /// From the views file's layout (unknown names ignored, missing columns appended shown).
    pub fn from_layout(l: Option<&ColumnLayout>) -> Self {
        let Some(l) = l else {
            return Columns::default();
        };
        let mut order: Vec<(Column, bool)> = Vec::new();
        let names = l.order.iter().filter_map(|n| Column::parse(n));
        for c in names.chain(Column::ALL) {
            if !order.iter().any(|(o, _)| *o == c) {
                let hidden = l.hidden.iter().any(|h| Column::parse(h) == Some(c));
                order.push((c, !hidden));
            }
        }
        Columns {
            order,
            chosen: true,
        }
    }

    /// The layout to save.
    pub fn layout(&self) -> ColumnLayout {
        ColumnLayout {
            order: self.order.iter().map(|(c, _)| c.name().into()).collect(),
            hidden: self
                .order
                .iter()
                .filter(|(_, s)| !s)
                .map(|(c, _)| c.name().into())
                .collect(),
        }
    }

    /// The shown columns, in order.
    pub fn shown(&self) -> impl Iterator<Item = Column> + '_ {
        self.order.iter().filter(|(_, s)| *s).map(|(c, _)| *c)
    }

    /// Shows or hides the column at `i`; the id column always stays (a row must be nameable).
    pub fn toggle(&mut self, i: usize) -> bool {
        match self.order.get_mut(i) {
            Some((Column::Id, _)) | None => false,
            Some((_, s)) => {
                *s = !*s;
                self.chosen = true;
                true
            }
        }
    }

    /// Moves the column at `i` by `delta` places; returns its new place.
    pub fn shift(&mut self, i: usize, delta: isize) -> usize {
        let j = i
            .saturating_add_signed(delta)
            .min(self.order.len().saturating_sub(1));
        if i < self.order.len() && j != i {
            let c = self.order.remove(i);
            self.order.insert(j, c);
            self.chosen = true;
        }
        j
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_round_trip_and_the_id_stays() {
        let mut c = Columns::default();
        assert!(!c.toggle(1), "the id column cannot be hidden");
        assert!(c.toggle(0));
        assert_eq!(c.shift(10, -10), 0, "instruction moved first");
        let l = c.layout();
        assert_eq!(l.order[0], "instruction");
        assert_eq!(l.hidden, vec!["status".to_string()]);
        assert_eq!(Columns::from_layout(Some(&l)), c);
        let partial = ColumnLayout {
            order: vec!["r(i)".into(), "nope".into()],
            hidden: vec![],
        };
        let p = Columns::from_layout(Some(&partial));
        assert_eq!(p.order.len(), Column::ALL.len(), "missing columns appended");
        assert_eq!(p.order[0].0, Column::Init);
    }
}
