//! The five-dimensional scenario matrix (A.2.2): platform (desktop / web / cross), domain category
//! (ten O*NET-aligned), difficulty (easy <= 3 atomic actions, medium 3–10 steps, hard long-horizon:
//! many records, several fields or more than one app), scenario (commercial / educational /
//! scientific / personal) and task type (single_app / cross_app). Running per-cell counts drive
//! inverse-frequency weighting of the next draw.

use std::collections::BTreeMap;

use rand::rngs::StdRng;
use rand::Rng;
use serde::Serialize;

use super::phrasing::{CATEGORIES, SCENARIOS};

/// The difficulties, in order.
pub const DIFFICULTIES: [&str; 3] = ["easy", "medium", "hard"];

/// One cell of the matrix.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Cell {
    /// desktop | web | cross.
    pub platform: String,
    /// Domain category.
    pub category: String,
    /// easy | medium | hard.
    pub difficulty: String,
    /// commercial | educational | scientific | personal.
    pub scenario: String,
    /// single_app | cross_app.
    pub task_type: String,
}

/// Running counts: per cell, per dimension value, per app and per taxonomy leaf.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Matrix {
    /// Tasks per full cell.
    pub cells: BTreeMap<Cell, u32>,
    /// Tasks per category.
    pub categories: BTreeMap<String, u32>,
    /// Tasks per difficulty.
    pub difficulties: BTreeMap<String, u32>,
    /// Tasks per scenario.
    pub scenarios: BTreeMap<String, u32>,
    /// Tasks per platform.
    pub platforms: BTreeMap<String, u32>,
    /// Tasks per task type.
    pub task_types: BTreeMap<String, u32>,
    /// Tasks touching each app (a cross-app task counts for each of its apps).
    pub apps: BTreeMap<String, u32>,
    /// Tasks per taxonomy leaf (`app:path`).
    pub leaves: BTreeMap<String, u32>,
    /// All tasks.
    pub total: u32,
    /// Per-cell counts keyed by (platform+task type hash, difficulty, category, scenario index),
    /// so a draw weighs 120 cells without allocating.
    #[serde(skip)]
    fast: std::collections::HashMap<(u64, usize, usize, usize), u32>,
}

fn pt_key(platform: &str, task_type: &str) -> u64 {
    platform
        .bytes()
        .chain([0])
        .chain(task_type.bytes())
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        })
}

fn bump(m: &mut BTreeMap<String, u32>, k: &str) {
    *m.entry(k.to_string()).or_insert(0) += 1;
}

/// The two kinds of count maps [`Matrix`] keeps: decrement a key, removing it at zero.
trait Counts<K, Q: ?Sized> {
    fn decrement(&mut self, k: &Q);
}

impl<K: Ord + std::borrow::Borrow<Q>, Q: Ord + ?Sized> Counts<K, Q> for BTreeMap<K, u32> {
    fn decrement(&mut self, k: &Q) {
        if let Some(n) = self.get_mut(k) {
            *n -= 1;
            if *n == 0 {
                self.remove(k);
            }
        }
    }
}

impl<K, Q> Counts<K, Q> for std::collections::HashMap<K, u32>
where
    K: std::hash::Hash + Eq + std::borrow::Borrow<Q>,
    Q: std::hash::Hash + Eq + ?Sized,
{
    fn decrement(&mut self, k: &Q) {
        if let Some(n) = self.get_mut(k) {
            *n -= 1;
            if *n == 0 {
                self.remove(k);
            }
        }
    }
}

impl Matrix {
    /// Records one task.
    pub fn record(&mut self, cell: &Cell, apps: &[&str], leaf: Option<&str>) {
        *self.cells.entry(cell.clone()).or_insert(0) += 1;
        let d = DIFFICULTIES.iter().position(|x| *x == cell.difficulty);
        let c = CATEGORIES.iter().position(|x| *x == cell.category);
        let s = SCENARIOS.iter().position(|x| *x == cell.scenario);
        if let (Some(d), Some(c), Some(s)) = (d, c, s) {
            *self
                .fast
                .entry((pt_key(&cell.platform, &cell.task_type), d, c, s))
                .or_insert(0) += 1;
        }
        bump(&mut self.categories, &cell.category);
        bump(&mut self.difficulties, &cell.difficulty);
        bump(&mut self.scenarios, &cell.scenario);
        bump(&mut self.platforms, &cell.platform);
        bump(&mut self.task_types, &cell.task_type);
        for a in apps {
            bump(&mut self.apps, a);
        }
        if let Some(l) = leaf {
            bump(&mut self.leaves, l);
        }
        self.total += 1;
    }

    /// Undoes one [`Matrix::record`] of the same arguments (a task admitted tentatively and then
    /// rejected by the sentence-embedding check); counts that reach zero disappear, as if never
    /// recorded.
    pub fn forget(&mut self, cell: &Cell, apps: &[&str], leaf: Option<&str>) {
        self.cells.decrement(cell);
        let d = DIFFICULTIES.iter().position(|x| *x == cell.difficulty);
        let c = CATEGORIES.iter().position(|x| *x == cell.category);
        let s = SCENARIOS.iter().position(|x| *x == cell.scenario);
        if let (Some(d), Some(c), Some(s)) = (d, c, s) {
            self.fast
                .decrement(&(pt_key(&cell.platform, &cell.task_type), d, c, s));
        }
        self.categories.decrement(&cell.category);
        self.difficulties.decrement(&cell.difficulty);
        self.scenarios.decrement(&cell.scenario);
        self.platforms.decrement(&cell.platform);
        self.task_types.decrement(&cell.task_type);
        for a in apps {
            self.apps.decrement(*a);
        }
        if let Some(l) = leaf {
            self.leaves.decrement(l);
        }
        self.total = self.total.saturating_sub(1);
    }

    fn share(m: &BTreeMap<String, u32>, k: &str, total: u32) -> f64 {
        f64::from(m.get(k).copied().unwrap_or(0)) / f64::from(total.max(1))
    }

    /// Draws (category, difficulty, scenario) for a leaf of the given platform and task type.
    /// Weight = difficulty deficit against `difficulty_target` (shares summing to 1) × inverse
    /// frequency of the category, the scenario and the full cell.
    pub fn draw(
        &self,
        rng: &mut StdRng,
        platform: &str,
        task_type: &str,
        difficulty_target: [f64; 3],
    ) -> Cell {
        let pt = pt_key(platform, task_type);
        let mut options: Vec<(f64, (usize, usize, usize))> =
            Vec::with_capacity(CATEGORIES.len() * 12);
        let cat_w: Vec<f64> = CATEGORIES
            .iter()
            .map(|c| 1.0 / (1.0 + f64::from(self.categories.get(*c).copied().unwrap_or(0))))
            .collect();
        let scen_w: Vec<f64> = SCENARIOS
            .iter()
            .map(|s| 1.0 / (1.0 + f64::from(self.scenarios.get(*s).copied().unwrap_or(0))))
            .collect();
        for (di, d) in DIFFICULTIES.iter().enumerate() {
            if difficulty_target[di] <= 0.0 {
                continue;
            }
            let wd =
                difficulty_target[di] / (Self::share(&self.difficulties, d, self.total) + 0.02);
            for (ci, wc) in cat_w.iter().enumerate() {
                for (si, ws) in scen_w.iter().enumerate() {
                    let n = self.fast.get(&(pt, di, ci, si)).copied().unwrap_or(0);
                    options.push((wd * wc * ws / (1.0 + f64::from(n)), (di, ci, si)));
                }
            }
        }
        let (di, ci, si) = weighted(rng, options);
        Cell {
            platform: platform.into(),
            category: CATEGORIES[ci].into(),
            difficulty: DIFFICULTIES[di].into(),
            scenario: SCENARIOS[si].into(),
            task_type: task_type.into(),
        }
    }
}

/// Picks one item by weight (items with non-positive total fall back to the first).
pub fn weighted<T>(rng: &mut StdRng, mut options: Vec<(f64, T)>) -> T {
    let total: f64 = options.iter().map(|(w, _)| w.max(0.0)).sum();
    let mut x = rng.random_range(0.0..total.max(f64::MIN_POSITIVE));
    let last = options.len().saturating_sub(1);
    for (i, (w, _)) in options.iter().enumerate() {
        if x < w.max(0.0) || i == last {
            return options.swap_remove(i).1;
        }
        x -= w.max(0.0);
    }
    options.swap_remove(0).1
}
