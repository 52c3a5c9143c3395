//! Why an export wrote nothing: which statuses hold the tuples instead, and the step that moves
//! them on (or the `--status` that exports them as they are).

use tuplewright_base::store::{Result, Store, TupleStatus};

/// The next step for tuples in `status`, if the pipeline has one.
fn next_step(status: &str) -> Option<&'static str> {
    Some(match TupleStatus::parse(status)? {
        TupleStatus::Pending | TupleStatus::InLoop => "run the agreement loop (`tuplewright run`)",
        TupleStatus::LoopAccepted => "vote on them (`tuplewright filter`)",
        TupleStatus::Voted => "roll them out (`tuplewright rollout --policy command`)",
        TupleStatus::NeedsHuman => "decide them (`tuplewright override` or the Filter screen)",
        _ => return None,
    })
}

/// A hint for an export that wrote no bundle for `statuses` (of `task`, when given): `None` when
/// the store holds no tuple at all. Names how many tuples are in which other status, e.g.
/// `no tuple is final; 110 are voted (roll them out …), 3 are loop_accepted (…); or pass
/// --status voted to export them as they are`.
pub fn empty_export_hint(
    store: &Store,
    statuses: &[String],
    task: Option<&str>,
) -> Result<Option<String>> {
    let wanted = statuses.join(", ");
    let counts: Vec<(String, i64)> = match task {
        Some(id) => match store.effective_status(id) {
            Ok(s) if store.task(id).is_ok() => vec![(s, 1)],
            _ => return Ok(Some(format!("no task `{id}` in the store"))),
        },
        None => store.status_counts()?,
    };
    let mut others: Vec<(String, i64)> = counts
        .into_iter()
        .filter(|(s, n)| *n > 0 && !statuses.contains(s))
        .collect();
    if others.is_empty() {
        return Ok(None);
    }
    others.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    if let Some(id) = task {
        let status = &others[0].0;
        let step = next_step(status)
            .map(|s| format!(" ({s})"))
            .unwrap_or_default();
        return Ok(Some(format!(
            "{id} is {status}, not {wanted}{step}; or pass --status {status} to export it as it is"
        )));
    }
    let parts: Vec<String> = others
        .iter()
        .map(|(s, n)| {
            let verb = if *n == 1 { "is" } else { "are" };
            match next_step(s) {
                Some(step) => format!("{n} {verb} {s} ({step})"),
                None => format!("{n} {verb} {s}"),
            }
        })
        .collect();
    Ok(Some(format!(
        "no tuple is {wanted}; {}; or pass --status {} to export them as they are",
        parts.join(", "),
        others[0].0
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tuplewright_base::store::{DecisionSource, Labels, StoreError, TaskRecord};

    fn store_with(statuses: &[(&str, TupleStatus)]) -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let mut store =
            Store::open(&dir.path().join("h.db"), std::time::Duration::from_secs(5)).unwrap();
        store
            .write(|tx| {
                for (id, status) in statuses {
                    tx.upsert_task(&TaskRecord {
                        task_id: id.to_string(),
                        instruction: "x".into(),
                        context: String::new(),
                        labels: Labels::default(),
                        app_type: None,
                        original_json: serde_json::json!({"task_id": id}),
                        origin: "test".into(),
                    })?;
                    if *status != TupleStatus::Pending {
                        tx.record_decision(id, *status, "t", DecisionSource::Policy, "", None)?;
                    }
                }
                Ok::<_, StoreError>(())
            })
            .unwrap();
        (dir, store)
    }

    #[test]
    fn an_empty_export_names_where_the_tuples_are_and_the_next_step() {
        let (_d, store) = store_with(&[
            ("a", TupleStatus::Voted),
            ("b", TupleStatus::Voted),
            ("c", TupleStatus::LoopAccepted),
            ("d", TupleStatus::Dropped),
        ]);
        let hint = empty_export_hint(&store, &["final".into()], None)
            .unwrap()
            .unwrap();
        assert!(
            hint.starts_with("no tuple is final; 2 are voted (roll them out"),
            "{hint}"
        );
        assert!(hint.contains("1 is loop_accepted (vote on them"), "{hint}");
        assert!(hint.contains("1 is dropped"), "{hint}");
        assert!(
            hint.ends_with("pass --status voted to export them as they are"),
            "{hint}"
        );
        let one = empty_export_hint(&store, &["final".into()], Some("c"))
            .unwrap()
            .unwrap();
        assert!(
            one.starts_with("c is loop_accepted, not final (vote on them"),
            "{one}"
        );
        let missing = empty_export_hint(&store, &["final".into()], Some("zz"))
            .unwrap()
            .unwrap();
        assert_eq!(missing, "no task `zz` in the store");
        let (_d2, empty) = store_with(&[]);
        assert_eq!(
            empty_export_hint(&empty, &["final".into()], None).unwrap(),
            None
        );
    }
}
