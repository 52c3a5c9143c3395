//! The workbench's pause / resume / cancel on a shared (PostgreSQL) store: besides the workbench's
//! own job, if any, they write the store's job control ([`tuplewright_engine::worker::control`]), which
//! every `tuplewright worker` on the store obeys — pause drains the tasks in flight everywhere,
//! cancel abandons them (left pending) and stops the workers — exactly as `tuplewright job
//! pause|resume|cancel` does.

use std::time::Duration;

use tuplewright_base::store::db::is_url;
use tuplewright_base::store::Store;
use tuplewright_engine::worker::control::{self, JobState};

use super::data::EngineCommand;
use super::jobs::JobSettings;

/// Applies a pause / resume / cancel to the store's job control when the store is shared; the
/// notice to show, or `None` when the store is a local file (or `cmd` is no job control).
pub fn apply(settings: &JobSettings, cmd: &EngineCommand) -> Option<String> {
    if !is_url(&settings.store) {
        return None;
    }
    let (to, verb) = match cmd {
        EngineCommand::PauseJob => (JobState::Paused, "pause"),
        EngineCommand::ResumeJob => (JobState::Running, "resume"),
        EngineCommand::CancelJob => (JobState::Cancelled, "cancel"),
        _ => return None,
    };
    let timeout = Duration::from_millis(settings.config.store.busy_timeout_ms);
    let by = control::requester(&format!("workbench {verb}"));
    let res = Store::open(&settings.store, timeout).and_then(|mut s| {
        let changed = s.write(|tx| control::set_job_state(tx, to, &by))?;
        Ok((changed, control::job_state(s.conn())?))
    });
    Some(match res {
        Ok((Some(_), _)) => match to {
            JobState::Paused => {
                "paused every worker of the store: tasks in flight finish, none is claimed".into()
            }
            JobState::Running => "resumed every worker of the store".into(),
            JobState::Cancelled => "cancelled for every worker of the store: tasks in flight are \
                                    abandoned and left pending"
                .into(),
        },
        Ok((None, now)) => format!("the store's workers are already {}", now.as_str()),
        Err(e) => format!("store error while setting the workers' job control: {e}"),
    })
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::time::Instant;

    use super::*;
    use crate::data::DataUpdate;
    use crate::jobs::{JobRunner, JobUpdate};
    use tuplewright_base::store::testdb::TestDb;
    use tuplewright_engine::config::Config;
    use tuplewright_engine::sandbox::Isolation;

    fn next_notice(rx: &mpsc::Receiver<DataUpdate>) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(DataUpdate::Job(JobUpdate::Notice(n))) => return n,
                Ok(_) => {}
                Err(e) => panic!("no notice from the job runner: {e}"),
            }
        }
    }

    #[test]
    fn the_workbench_pauses_resumes_and_cancels_every_worker_on_a_postgresql_store() {
        let Some(db) = TestDb::create("workbench_store_job_control") else {
            return;
        };
        let settings = JobSettings {
            store: db.path(),
            config: Config::default(),
            isolation: Isolation::Required,
            seed: 0,
        };
        let (tx, rx) = mpsc::channel();
        let runner = JobRunner::start(settings.clone(), tx).unwrap();
        let state = || {
            let s = Store::open(&settings.store, Duration::from_secs(10)).unwrap();
            control::job_state(s.conn()).unwrap()
        };
        runner.send(EngineCommand::PauseJob);
        assert!(next_notice(&rx).contains("paused every worker"));
        assert_eq!(state(), JobState::Paused);
        runner.send(EngineCommand::PauseJob);
        assert!(next_notice(&rx).contains("already paused"));
        runner.send(EngineCommand::CancelJob);
        assert!(next_notice(&rx).contains("cancelled for every worker"));
        assert_eq!(state(), JobState::Cancelled);
        runner.send(EngineCommand::ResumeJob);
        assert!(next_notice(&rx).contains("resumed every worker"));
        assert_eq!(state(), JobState::Running);
        let s = Store::open(&settings.store, Duration::from_secs(10)).unwrap();
        let kinds: Vec<String> = s
            .events_after(0, 100)
            .unwrap()
            .into_iter()
            .map(|e| e.kind)
            .filter(|k| k.starts_with("workers."))
            .collect();
        assert_eq!(
            kinds,
            ["workers.paused", "workers.cancelled", "workers.resumed"]
        );
        assert_eq!(runner.stop(), None);
    }

    #[test]
    fn a_local_store_file_gets_no_store_control() {
        let dir = tempfile::tempdir().unwrap();
        let settings = JobSettings {
            store: dir.path().join("tw.db"),
            config: Config::default(),
            isolation: Isolation::Required,
            seed: 0,
        };
        assert_eq!(apply(&settings, &EngineCommand::PauseJob), None);
        assert!(!settings.store.exists(), "nothing opened or written");
    }
}
