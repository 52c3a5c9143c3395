//! State of the Reward screen: the tuple shown, the round, the focused card (r(init), r(gold),
//! then one per rollout trial), scrolling, and the raw-output view of the focused card.

use crate::action::Action;
use crate::data::EngineCommand;
use crate::reward_data::{RewardCard, RewardView};

use super::Model;

/// Reward screen state.
#[derive(Debug, Default)]
pub struct RewardState {
    /// The tuple requested (its data may still be loading).
    pub task_id: Option<String>,
    /// The loaded data.
    pub data: Option<RewardView>,
    /// Index into the rounds.
    pub round: usize,
    /// Index of the focused card in [`RewardState::cards`].
    pub focus: usize,
    /// Scroll offset of the cards, in lines.
    pub scroll: usize,
    /// Showing the raw output of the focused card.
    pub raw: bool,
    /// Scroll of the raw output, in lines.
    pub raw_scroll: usize,
}

impl RewardState {
    /// The cards of the current round, then the rollout trials.
    pub fn cards(&self) -> Vec<&RewardCard> {
        let Some(d) = &self.data else {
            return Vec::new();
        };
        d.rounds
            .get(self.round)
            .map(|r| r.cards.iter())
            .into_iter()
            .flatten()
            .chain(d.trials.iter())
            .collect()
    }

    /// The focused card.
    pub fn focused(&self) -> Option<&RewardCard> {
        self.cards().get(self.focus).copied()
    }

    /// Asks for `id`'s data (always re-read: trials may have arrived).
    pub fn request(&mut self, id: &str) -> Vec<EngineCommand> {
        if self.task_id.as_deref() != Some(id) {
            self.task_id = Some(id.to_string());
            self.raw = false;
        }
        vec![EngineCommand::LoadRewards(id.to_string())]
    }

    /// Takes loaded data if it is the tuple requested; a new tuple opens on its latest round.
    pub fn accept(&mut self, v: RewardView) {
        if self.task_id.as_deref() != Some(v.task_id.as_str()) {
            return;
        }
        let same = self.data.as_ref().is_some_and(|d| d.task_id == v.task_id);
        if !same {
            self.round = v.rounds.len().saturating_sub(1);
            (self.focus, self.scroll, self.raw_scroll) = (0, 0, 0);
        }
        self.round = self.round.min(v.rounds.len().saturating_sub(1));
        self.data = Some(v);
        self.focus = self.focus.min(self.cards().len().saturating_sub(1));
    }

    /// Applies a screen action; `page` is the rows a page moves.
    pub fn act(&mut self, a: Action, page: isize) -> Vec<EngineCommand> {
        let page = page.max(1) as usize;
        let n_cards = self.cards().len();
        let scroll = if self.raw {
            &mut self.raw_scroll
        } else {
            &mut self.scroll
        };
        match a {
            Action::Down => *scroll += 1,
            Action::Up => *scroll = scroll.saturating_sub(1),
            Action::PageDown => *scroll += page,
            Action::PageUp => *scroll = scroll.saturating_sub(page),
            Action::Top => *scroll = 0,
            Action::NextRound | Action::PrevRound => {
                let n = self.data.as_ref().map_or(0, |d| d.rounds.len());
                let delta = if a == Action::NextRound { 1 } else { -1 };
                self.round = self
                    .round
                    .saturating_add_signed(delta)
                    .min(n.saturating_sub(1));
                (self.focus, self.scroll, self.raw_scroll) = (0, 0, 0);
            }
            Action::CardNext => {
                self.focus = (self.focus + 1).min(n_cards.saturating_sub(1));
                self.raw_scroll = 0;
            }
            Action::CardPrev => {
                self.focus = self.focus.saturating_sub(1);
                self.raw_scroll = 0;
            }
            Action::RawOutput => {
                self.raw = !self.raw;
                self.raw_scroll = 0;
            }
            Action::Back if self.raw => self.raw = false,
            _ => {}
        }
        Vec::new()
    }
}

/// Opening the screen loads the tuple selected on the Tuples screen.
pub fn open(m: &mut Model) -> Vec<EngineCommand> {
    match m.tuples.selected_id().map(str::to_string) {
        Some(id) => m.reward.request(&id),
        None => Vec::new(),
    }
}

/// Screen actions that need more than the Reward state: n/N follow the tuple list.
pub fn act(m: &mut Model, a: Action, page: isize) -> Vec<EngineCommand> {
    match a {
        Action::NextItem | Action::PrevItem => {
            m.tuples.move_by(if a == Action::NextItem { 1 } else { -1 });
            open(m)
        }
        _ => m.reward.act(a, page),
    }
}
