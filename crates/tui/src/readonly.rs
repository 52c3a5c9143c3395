//! Observer mode (`tuplewright --readonly`): which engine commands write, and the refusal shown
//! for them. The model drops them before they leave it, and the store worker refuses them again
//! (defence in depth); the store itself is opened read-only at the SQLite level.

use super::data::{DataUpdate, EngineCommand};

/// True for the commands that change the store or drive a job.
pub fn writes(cmd: &EngineCommand) -> bool {
    matches!(
        cmd,
        EngineCommand::Decide(_)
            | EngineCommand::DecideBulk(_)
            | EngineCommand::UndoGroup(_)
            | EngineCommand::AddNote(_)
            | EngineCommand::StartRun(_)
            | EngineCommand::StartRollouts { .. }
            | EngineCommand::StartVote(_)
            | EngineCommand::StartVerify(_)
            | EngineCommand::StartRerun(_)
            | EngineCommand::StartTaskgen(_)
            | EngineCommand::PauseJob
            | EngineCommand::ResumeJob
            | EngineCommand::CancelJob
    )
}

/// A short name of a writing command, for the refusal notice.
pub fn describe(cmd: &EngineCommand) -> &'static str {
    match cmd {
        EngineCommand::Decide(d) if d.action == tuplewright_records::filter::Action::Undo => "undo",
        EngineCommand::Decide(_) | EngineCommand::DecideBulk(_) => "decisions",
        EngineCommand::UndoGroup(_) => "undo",
        EngineCommand::AddNote(_) => "notes",
        EngineCommand::StartRun(_) => "starting a run",
        EngineCommand::StartRollouts { .. } => "launching rollouts",
        EngineCommand::StartVote(_) => "starting the critic vote",
        EngineCommand::StartVerify(_) => "starting verification",
        EngineCommand::StartRerun(_) => "re-running tuples",
        EngineCommand::StartTaskgen(_) => "generating tasks",
        EngineCommand::PauseJob => "pausing a job",
        EngineCommand::ResumeJob => "resuming a job",
        EngineCommand::CancelJob => "cancelling a job",
        _ => "this command",
    }
}

/// The refusal notice for a writing command.
pub fn refusal(cmd: &EngineCommand) -> String {
    format!(
        "read-only mode: {} refused (restart without --readonly to change the store)",
        describe(cmd)
    )
}

/// Splits off the writing commands when `readonly`; returns the commands to send and the notice
/// for the refused ones.
pub fn guard(readonly: bool, cmds: Vec<EngineCommand>) -> (Vec<EngineCommand>, Option<String>) {
    if !readonly {
        return (cmds, None);
    }
    let (refused, allowed): (Vec<_>, Vec<_>) = cmds.into_iter().partition(writes);
    (allowed, refused.first().map(refusal))
}

/// The worker's answer to a writing command in read-only mode.
pub fn worker_refusal(cmd: &EngineCommand) -> DataUpdate {
    DataUpdate::Error(format!("store worker: {}", refusal(cmd)))
}
