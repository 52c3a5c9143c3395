//! The endpoint slot semaphore on SQLite and on PostgreSQL: a cap bounds the slots held by all
//! owners together, a freed slot is taken again, a lapsed one is reclaimed, an uncapped endpoint
//! takes none, a cap of 0 and a bad stored cap are refused with their names; the rate caps bound
//! the turns of every owner per minute.

use std::path::Path;
use std::time::Duration;

use super::*;
use crate::store::testdb::TestDb;

const BUSY: Duration = Duration::from_secs(10);

fn set(path: &Path, endpoint: &str, calls: Option<u32>) {
    let mut s = Store::open(path, BUSY).unwrap();
    s.write(|tx| set_cap(tx, endpoint, calls, "test")).unwrap();
}

fn slots_are_bounded_by_the_cap_over_every_owner(path: &Path) {
    let a = EndpointSlots::open(path, BUSY, Duration::from_secs(60)).unwrap();
    let b = EndpointSlots::open(path, BUSY, Duration::from_secs(60)).unwrap();
    assert_eq!(
        a.try_take("openai:m").unwrap(),
        None,
        "uncapped: no slot taken"
    );
    set(path, "openai:m", Some(1));
    let first = a.try_take("openai:m").unwrap().unwrap().unwrap();
    assert_eq!(first.index, 0);
    assert_eq!(b.try_take("openai:m").unwrap(), Some(None), "cap 1 reached");
    assert!(b
        .take("openai:m", Duration::from_millis(200))
        .unwrap_err()
        .to_string()
        .contains("no call slot of openai:m"));
    a.release(&first).unwrap();
    let second = b.take("openai:m", Duration::from_secs(5)).unwrap().unwrap();
    assert_eq!(second.index, 0);
    set(path, "openai:m", Some(2));
    let third = a.try_take("openai:m").unwrap().unwrap().unwrap();
    assert_eq!(third.index, 1);
    assert_eq!(a.try_take("openai:m").unwrap(), Some(None), "cap 2 reached");
    assert_eq!(a.held().unwrap(), [("openai:m".to_string(), 2)]);
    // Lowering the cap below the slots held lets no new call in until enough are given back.
    set(path, "openai:m", Some(1));
    b.release(&second).unwrap();
    assert_eq!(b.try_take("openai:m").unwrap(), Some(None));
    a.release(&third).unwrap();
    assert!(b.try_take("openai:m").unwrap().unwrap().is_some());
    // Bad caps are named.
    let mut s = Store::open(path, BUSY).unwrap();
    let err = s
        .write(|tx| set_cap(tx, "openai:m", Some(0), "test"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("at least 1"), "{err}");
    s.write(|tx| {
        tx.conn().execute(
            "UPDATE store_controls SET value = 'lots' WHERE name = ?1",
            params![cap_key("openai:m")],
        )
    })
    .unwrap();
    let err = cap(s.conn(), "openai:m").unwrap_err().to_string();
    assert!(
        err.contains("cap.endpoint.openai:m") && err.contains("lots"),
        "{err}"
    );
}

fn a_lapsed_slot_is_reclaimed(path: &Path) {
    set(path, "anthropic:m", Some(1));
    let quick = EndpointSlots::open(path, BUSY, Duration::from_millis(1)).unwrap();
    let other = EndpointSlots::open(path, BUSY, Duration::from_secs(60)).unwrap();
    assert!(quick.try_take("anthropic:m").unwrap().unwrap().is_some());
    // Never given back: once it lapsed, the other owner takes the slot.
    let got = other.take("anthropic:m", Duration::from_secs(10)).unwrap();
    assert_eq!(got.map(|s| s.index), Some(0));
    assert_eq!(other.held().unwrap(), [("anthropic:m".to_string(), 1)]);
}

#[test]
fn slots_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    slots_are_bounded_by_the_cap_over_every_owner(&dir.path().join("tw.db"));
}

#[test]
fn slots_on_postgres() {
    if let Some(db) = TestDb::create("slots_on_postgres") {
        slots_are_bounded_by_the_cap_over_every_owner(&db.path());
    }
}

#[test]
fn lapsed_slot_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    a_lapsed_slot_is_reclaimed(&dir.path().join("tw.db"));
}

#[test]
fn lapsed_slot_on_postgres() {
    if let Some(db) = TestDb::create("lapsed_slot_on_postgres") {
        a_lapsed_slot_is_reclaimed(&db.path());
    }
}

fn set_rate_cap(path: &Path, endpoint: &str, per_minute: Option<u32>) {
    let mut s = Store::open(path, BUSY).unwrap();
    s.write(|tx| rate::set_rate(tx, endpoint, per_minute, "test"))
        .unwrap();
}

/// Moves every recorded turn of `endpoint` `secs` into the past (the window slides by).
fn age_turns(path: &Path, endpoint: &str, secs: i64) {
    let mut s = Store::open(path, BUSY).unwrap();
    let at = stamp(chrono::Utc::now() - chrono::Duration::seconds(secs));
    s.write(|tx| {
        tx.conn().execute(
            "UPDATE endpoint_calls SET at = ?1 WHERE endpoint = ?2",
            params![at, endpoint],
        )
    })
    .unwrap();
}

fn a_rate_cap_bounds_the_turns_of_every_owner_per_minute(path: &Path) {
    let a = EndpointSlots::open(path, BUSY, Duration::from_secs(60)).unwrap();
    let b = EndpointSlots::open(path, BUSY, Duration::from_secs(60)).unwrap();
    assert_eq!(a.try_turn("openai:r").unwrap(), None, "no rate cap");
    set_rate_cap(path, "openai:r", Some(3));
    // Four threads over two connections race for 20 turns: exactly 3 are given.
    let given = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for i in 0..4 {
            let (slots, given) = (if i % 2 == 0 { &a } else { &b }, &given);
            s.spawn(move || {
                for _ in 0..5 {
                    if slots.try_turn("openai:r").unwrap() == Some(None) {
                        given.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    }
                }
            });
        }
    });
    assert_eq!(given.into_inner(), 3, "turns given past the cap of 3/min");
    let Some(Some(wait)) = b.try_turn("openai:r").unwrap() else {
        panic!("a fourth turn within the minute");
    };
    assert!(wait > Duration::ZERO && wait <= rate::WINDOW, "{wait:?}");
    let err = a
        .turn("openai:r", Duration::from_millis(100))
        .unwrap_err()
        .to_string();
    assert!(err.contains("no request turn of openai:r"), "{err}");
    // A minute later the window has room again; another endpoint was never limited.
    age_turns(path, "openai:r", 61);
    a.turn("openai:r", Duration::from_secs(5)).unwrap();
    assert_eq!(b.try_turn("anthropic:other").unwrap(), None);
    // Raising the cap lets more in at once; removing it lets everything through.
    set_rate_cap(path, "openai:r", Some(5));
    assert_eq!(b.try_turn("openai:r").unwrap(), Some(None));
    set_rate_cap(path, "openai:r", None);
    assert_eq!(b.try_turn("openai:r").unwrap(), None);
    let s = Store::open(path, BUSY).unwrap();
    assert!(rate::rates(s.conn()).unwrap().is_empty());
    // Bad caps are named.
    let mut s = Store::open(path, BUSY).unwrap();
    let err = s
        .write(|tx| rate::set_rate(tx, "openai:r", Some(0), "test"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("at least 1 request per minute"), "{err}");
    set_rate_cap(path, "openai:r", Some(2));
    s.write(|tx| {
        tx.conn().execute(
            "UPDATE store_controls SET value = 'fast' WHERE name = ?1",
            params![rate::rate_key("openai:r")],
        )
    })
    .unwrap();
    let err = a.try_turn("openai:r").unwrap_err().to_string();
    assert!(
        err.contains("rate.endpoint.openai:r") && err.contains("fast"),
        "{err}"
    );
}

#[test]
fn rate_cap_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    a_rate_cap_bounds_the_turns_of_every_owner_per_minute(&dir.path().join("tw.db"));
}

#[test]
fn rate_cap_on_postgres() {
    if let Some(db) = TestDb::create("rate_cap_on_postgres") {
        a_rate_cap_bounds_the_turns_of_every_owner_per_minute(&db.path());
    }
}
