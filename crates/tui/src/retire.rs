//! Freeing large values off the drawing thread (issue #33): replacing the tuple list frees
//! tens of thousands of rows (hundreds of thousands of strings), a batch of events thousands of
//! JSON payloads — a frame's whole budget when done between two frames. [`later`] hands such a
//! value to one background thread that drops it.

use std::sync::mpsc::{channel, Sender};
use std::sync::OnceLock;

type Retired = Box<dyn Send>;

/// The background thread's inbox (`None`: it could not be started).
fn sink() -> Option<&'static Sender<Retired>> {
    static SINK: OnceLock<Option<Sender<Retired>>> = OnceLock::new();
    SINK.get_or_init(|| {
        let (tx, rx) = channel::<Retired>();
        std::thread::Builder::new()
            .name("tw-retire".into())
            .spawn(move || rx.into_iter().for_each(drop))
            .ok()
            .map(|_| tx)
    })
    .as_ref()
}

/// Drops `value` on the background thread (here, when that thread cannot run).
pub fn later<T: Send + 'static>(value: T) {
    if let Some(tx) = sink() {
        // A send error gives the value back inside the error: dropped here then.
        let _ = tx.send(Box::new(value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Flag(
        std::sync::Arc<std::sync::atomic::AtomicBool>,
        std::thread::ThreadId,
    );

    impl Drop for Flag {
        fn drop(&mut self) {
            let elsewhere = std::thread::current().id() != self.1;
            self.0.store(elsewhere, std::sync::atomic::Ordering::SeqCst);
        }
    }

    #[test]
    fn a_retired_value_is_dropped_on_another_thread() {
        let seen = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        later(Flag(seen.clone(), std::thread::current().id()));
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while !seen.load(std::sync::atomic::Ordering::SeqCst) {
            assert!(
                std::time::Instant::now() < deadline,
                "never dropped elsewhere"
            );
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }
}
