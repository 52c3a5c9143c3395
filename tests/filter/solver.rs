//! A stand-in teacher that solves a shipped team-chat task by looking at its page. It follows the
//! team-chat planner's plan of the task, finds each target where a model would see it — through
//! a second DevTools session on the trial's own page (`WebScreen::attach_resolver`), never the
//! state API — and answers each turn with the `computer_use` actions of the next plan step (in
//! screen pixels; each wire's stand-in renders them in its own shape). It stands in for a model
//! that reads the screenshot; the policy, the screen, the wire and the harness are the real ones.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tuplewright::apps::team_chat::ui::planner::TeamChatPlanner;
use tuplewright::engine::rollout::screen::ComputerAction as A;
use tuplewright::engine::rollout::ui_plan::{PlanStep, Target, TargetResolver, UiPlanner};
use tuplewright::engine::rollout::vlm::{LiveScreen, ScreenProvision, TaskScreen};
use tuplewright::engine::rollout::{PolicyCtx, RolloutError};
use tuplewright::engine::screen::ScreenConfig;
use tuplewright::engine::ui::WebResolver;

/// What the stand-in does in one trial.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Mode {
    /// Follow the plan to the end, then `terminate` with success.
    Solve,
    /// Look around once (a wait), then `terminate` with failure.
    GiveUp,
}

struct Trial {
    resolver: WebResolver,
    plan: VecDeque<PlanStep>,
    mode: Mode,
    looked: bool,
}

/// The stand-in's view of the current trial.
pub struct Solver {
    modes: Mutex<VecDeque<Mode>>,
    trial: Mutex<Option<Trial>>,
    /// Targets the stand-in could not find (a failing test names them).
    pub misses: Mutex<Vec<String>>,
    size: (i32, i32),
}

/// How long the stand-in looks for a target before it reports a miss.
const LOOK: Duration = Duration::from_secs(20);

impl Solver {
    /// A stand-in that plays `modes` in order, one per trial.
    pub fn new(modes: &[Mode]) -> Arc<Solver> {
        Arc::new(Solver {
            modes: Mutex::new(modes.iter().copied().collect()),
            trial: Mutex::new(None),
            misses: Mutex::new(Vec::new()),
            size: (1280, 800),
        })
    }

    fn begin(&self, resolver: WebResolver, plan: Vec<PlanStep>) {
        let mode = self
            .modes
            .lock()
            .unwrap()
            .pop_front()
            .expect("a mode per trial");
        *self.trial.lock().unwrap() = Some(Trial {
            resolver,
            plan: plan.into(),
            mode,
            looked: false,
        });
    }

    fn point(&self, r: &mut WebResolver, target: &Target, wait: Duration) -> Option<(i32, i32)> {
        let deadline = Instant::now() + wait;
        loop {
            if let Ok(Some(rect)) = r.resolve(target) {
                let (x, y) = rect.centre();
                if x >= 0 && y >= 0 && x < self.size.0 && y < self.size.1 {
                    return Some((x, y));
                }
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The actions of the next turn (screen pixels): the next plan step's, or `terminate`.
    pub fn next_actions(&self) -> Vec<A> {
        let mut guard = self.trial.lock().unwrap();
        let Some(t) = guard.as_mut() else {
            return vec![A::Terminate { success: false }];
        };
        if t.mode == Mode::GiveUp {
            if t.looked {
                return vec![A::Terminate { success: false }];
            }
            t.looked = true;
            return vec![A::Wait { seconds: 0.2 }];
        }
        while let Some(step) = t.plan.pop_front() {
            let miss = |what: &Target| {
                self.misses.lock().unwrap().push(format!("{what:?}"));
                vec![A::Terminate { success: false }]
            };
            match &step {
                PlanStep::WaitFor { target, timeout_ms } => {
                    let wait = Duration::from_millis(*timeout_ms).max(LOOK);
                    if self.point(&mut t.resolver, target, wait).is_none() {
                        return miss(target);
                    }
                }
                PlanStep::Retry { until, steps, .. } => {
                    // One try here: the stand-in's screen is not loaded.
                    if !t.resolver.present(until).unwrap_or(false) {
                        for inner in steps.iter().rev() {
                            t.plan.push_front(inner.clone());
                        }
                    }
                }
                PlanStep::UnlessPresent { target, steps } => {
                    // Done already when the page shows it; else its steps come next.
                    if !t.resolver.present(target).unwrap_or(false) {
                        for inner in steps.iter().rev() {
                            t.plan.push_front(inner.clone());
                        }
                    }
                }
                PlanStep::Click { target }
                | PlanStep::Submit { target }
                | PlanStep::DoubleClick { target } => {
                    let Some((x, y)) = self.point(&mut t.resolver, target, LOOK) else {
                        return miss(target);
                    };
                    return vec![match step {
                        PlanStep::DoubleClick { .. } => A::DoubleClick { x, y },
                        _ => A::LeftClick { x, y },
                    }];
                }
                PlanStep::Drag { from, to } => {
                    let Some((x, y)) = self.point(&mut t.resolver, from, LOOK) else {
                        return miss(from);
                    };
                    let Some((to_x, to_y)) = self.point(&mut t.resolver, to, LOOK) else {
                        return miss(to);
                    };
                    return vec![A::LeftClickDrag { x, y, to_x, to_y }];
                }
                PlanStep::Fill { target, text } => {
                    let Some((x, y)) = self.point(&mut t.resolver, target, LOOK) else {
                        return miss(target);
                    };
                    return vec![
                        A::LeftClick { x, y },
                        A::Key {
                            key: "ctrl+a".into(),
                        },
                        A::Type { text: text.clone() },
                    ];
                }
                PlanStep::Type { text } => return vec![A::Type { text: text.clone() }],
                PlanStep::Key { key } => return vec![A::Key { key: key.clone() }],
                PlanStep::Scroll { target, amount } => {
                    if self
                        .point(&mut t.resolver, target, Duration::ZERO)
                        .is_none()
                    {
                        // Not in view yet: scroll this turn, look again the next.
                        t.plan.push_front(step.clone());
                        let (x, y) = (self.size.0 / 2, self.size.1 / 2);
                        return vec![A::Scroll {
                            x,
                            y,
                            amount: *amount,
                        }];
                    }
                }
            }
        }
        vec![A::Terminate { success: true }]
    }
}

/// The task's own screen (the real provision), with the stand-in's DevTools session attached.
pub struct Watched {
    pub solver: Arc<Solver>,
}

impl ScreenProvision for Watched {
    fn provision(&self, ctx: &PolicyCtx<'_>) -> Result<LiveScreen, RolloutError> {
        let live = TaskScreen {
            cfg: ScreenConfig::default(),
            url: String::new(),
        }
        .provision(ctx)?;
        let web = live
            .web()
            .ok_or_else(|| RolloutError::Infra("expected the app's web UI".into()))?;
        let plan = TeamChatPlanner
            .plan(ctx.brief)
            .map_err(|e| RolloutError::Policy(e.to_string()))?;
        self.solver
            .begin(web.attach_resolver(Duration::from_secs(20))?, plan);
        Ok(live)
    }
}
