//! Surface-form pools: scenario lead-ins, category reasons and category topics. An instruction is
//! `[lead] core [reason]`; the instruction *template* (for the per-template cap) is the recipe's core
//! variant plus the lead and reason ids, so surface forms vary while the goal stays explicit.

use rand::rngs::StdRng;
use rand::Rng;

/// The ten O*NET-aligned domain categories of the matrix (A.2.2).
pub const CATEGORIES: [&str; 10] = [
    "Communication",
    "Project Management",
    "Sales & Marketing",
    "Customer Support",
    "Finance",
    "Human Resources",
    "Software Engineering",
    "Operations",
    "Research",
    "Education",
];

/// The four scenarios (A.2.2).
pub const SCENARIOS: [&str; 4] = ["commercial", "educational", "scientific", "personal"];

const LEADS: [[&str; 6]; 4] = [
    [
        "We have a client review this week.",
        "Sales asked me to tidy this up before the renewal call.",
        "This is for the quarterly business review.",
        "Our biggest account is watching this closely.",
        "Ahead of the product launch,",
        "For the partner meeting tomorrow,",
    ],
    [
        "I'm preparing the onboarding course for new hires.",
        "This is for the training cohort starting Monday.",
        "The workshop students will look at this.",
        "For the internal lecture series,",
        "Before the mentoring session,",
        "As part of the certification programme,",
    ],
    [
        "We're tracking this for the lab's replication study.",
        "The research group needs this for the experiment log.",
        "This belongs to the field-trial dataset work.",
        "For the grant progress report,",
        "Before the peer-review deadline,",
        "For the benchmark measurements,",
    ],
    [
        "I'm getting my own week in order.",
        "Small personal housekeeping item:",
        "Before I head off on holiday,",
        "While I clear my backlog tonight,",
        "For my own planning,",
        "I keep forgetting this, so",
    ],
];

const REASONS: [[&str; 4]; 10] = [
    [
        "Everyone should be on the same page.",
        "People keep asking about it.",
        "It avoids another round of pings.",
        "The team relies on this channel of record.",
    ],
    [
        "It unblocks the milestone review.",
        "The plan changed this morning.",
        "We need it before stand-up.",
        "The roadmap depends on it.",
    ],
    [
        "The campaign starts soon.",
        "Marketing wants the numbers right.",
        "It matters for the conversion push.",
        "The promo calendar is tight.",
    ],
    [
        "A customer is waiting on it.",
        "Support escalated this twice.",
        "It keeps the ticket queue honest.",
        "The SLA clock is running.",
    ],
    [
        "Finance closes the books on Friday.",
        "It affects the budget reconciliation.",
        "The auditors will check it.",
        "Month-end close is near.",
    ],
    [
        "HR needs it for the headcount plan.",
        "It helps the new starters settle in.",
        "The hiring panel asked for it.",
        "It is part of the offboarding checklist.",
    ],
    [
        "The release train leaves tomorrow.",
        "It blocks the next deploy.",
        "The on-call engineer asked for it.",
        "CI has been noisy about this.",
    ],
    [
        "Operations reviews it every morning.",
        "The warehouse schedule depends on it.",
        "Logistics flagged it yesterday.",
        "It keeps the weekly ops report accurate.",
    ],
    [
        "The analysis notebook reads from it.",
        "We cite it in the findings.",
        "The data has to be reproducible.",
        "Our survey results depend on it.",
    ],
    [
        "The course material links to it.",
        "Learners will follow these steps.",
        "The syllabus was updated.",
        "It is on the teaching checklist.",
    ],
];

/// Topics per category: (noun phrase, short keyword that must appear in content).
const TOPICS: [[(&str, &str); 4]; 10] = [
    [
        ("the all-hands", "all-hands"),
        ("the team offsite", "offsite"),
        ("the town hall", "town hall"),
        ("the newsletter", "newsletter"),
    ],
    [
        ("the milestone review", "milestone"),
        ("the sprint demo", "demo"),
        ("the roadmap sync", "roadmap"),
        ("the kickoff", "kickoff"),
    ],
    [
        ("the spring campaign", "campaign"),
        ("the webinar", "webinar"),
        ("the product teaser", "teaser"),
        ("the pricing page refresh", "pricing page"),
    ],
    [
        ("the refund backlog", "refund"),
        ("the ticket triage", "triage"),
        ("the help-centre update", "help centre"),
        ("the escalation review", "escalation"),
    ],
    [
        ("the budget review", "budget"),
        ("the invoice run", "invoice"),
        ("the expense deadline", "expense"),
        ("the forecast", "forecast"),
    ],
    [
        ("the onboarding session", "onboarding"),
        ("the interview loop", "interview"),
        ("the benefits briefing", "benefits"),
        ("the performance reviews", "performance review"),
    ],
    [
        ("the release freeze", "release freeze"),
        ("the database migration", "migration"),
        ("the incident postmortem", "postmortem"),
        ("the code review rotation", "code review"),
    ],
    [
        ("the warehouse audit", "warehouse"),
        ("the shipping cutoff", "shipping"),
        ("the supplier call", "supplier"),
        ("the inventory count", "inventory count"),
    ],
    [
        ("the pilot study", "pilot study"),
        ("the data collection", "data collection"),
        ("the lab meeting", "lab meeting"),
        ("the survey analysis", "survey"),
    ],
    [
        ("the training workshop", "workshop"),
        ("the course launch", "course"),
        ("the study group", "study group"),
        ("the exam prep session", "exam prep"),
    ],
];

/// Week days used in content.
pub const DAYS: [&str; 5] = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"];
/// Times used in content.
pub const TIMES: [&str; 8] = [
    "9am", "10am", "11:30am", "1pm", "2pm", "3pm", "4:30pm", "5pm",
];

/// Index of a category name.
pub fn category_index(c: &str) -> usize {
    CATEGORIES.iter().position(|x| *x == c).unwrap_or(0)
}

/// Index of a scenario name.
pub fn scenario_index(s: &str) -> usize {
    SCENARIOS.iter().position(|x| *x == s).unwrap_or(0)
}

/// A random topic of a category.
pub fn topic(rng: &mut StdRng, category: &str) -> (&'static str, &'static str) {
    let pool = &TOPICS[category_index(category)];
    pool[rng.random_range(0..pool.len())]
}

/// Picks one element.
pub fn pick<'a, T>(rng: &mut StdRng, items: &'a [T]) -> &'a T {
    &items[rng.random_range(0..items.len())]
}

/// Wraps a core sentence with an optional lead and reason. `diversify` > 0 forces both (longer,
/// rarer surface forms). Returns the instruction and the template signature suffix.
pub fn frame(
    rng: &mut StdRng,
    core: &str,
    scenario: &str,
    category: &str,
    diversify: usize,
) -> (String, String) {
    let leads = &LEADS[scenario_index(scenario)];
    let reasons = &REASONS[category_index(category)];
    let lead = (diversify > 0 || rng.random_bool(0.7)).then(|| rng.random_range(0..leads.len()));
    let reason =
        (diversify > 0 || rng.random_bool(0.6)).then(|| rng.random_range(0..reasons.len()));
    let mut text = String::new();
    if let Some(l) = lead {
        let l = leads[l];
        text.push_str(l);
        text.push(' ');
        if l.ends_with(',') || l.ends_with(':') || l.ends_with(" so") {
            let mut c = core.chars();
            if let Some(first) = c.next() {
                text.extend(first.to_lowercase());
                text.push_str(c.as_str());
            }
        } else {
            text.push_str(core);
        }
    } else {
        text.push_str(core);
    }
    if let Some(r) = reason {
        text.push(' ');
        text.push_str(reasons[r]);
    }
    let sig = format!(
        "{}|{}",
        lead.map_or("-".into(), |l| format!("{scenario}{l}")),
        reason.map_or("-".into(), |r| format!("{category}{r}"))
    );
    (text, sig)
}
