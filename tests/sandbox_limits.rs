//! The sandbox's memory and system-call limits against the real bubblewrap sandbox: `/dev/shm`
//! and `/dev` are no memory hole, the run's memory cgroup (where the machine allows one) stops a
//! script that fills its tmpfs mounts past `memory_bytes`, and a probe script that tries every
//! refused system call gets `EPERM` (`ENOSYS` for `clone3`) while threads, fork and ordinary
//! calls still work. Needs bubblewrap and root (CI runs `.ci/setup` as root).

use crate::sandbox_support;

use sandbox_support::*;
use serde_json::Value;
use tuplewright::engine::sandbox::cgroup::MemoryCgroup;
use tuplewright::engine::sandbox::seccomp::DENIED;
use tuplewright::engine::sandbox::{LimitKind, Limits, Outcome, Role};

static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

const FILL: &str = r#"
import sys
target = sys.argv[1] if len(sys.argv) > 1 else "/dev/shm/fill"
with open(target, "wb") as f:
    for _ in range(256):
        f.write(b"x" * (1 << 20))
        f.flush()
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dev_shm_filler_stops_at_its_limit_and_dev_is_read_only() {
    let _g = SERIAL.lock().await;
    let env = Env::new();
    let l = Limits {
        shm_bytes: 4 << 20,
        ..limits(30.0)
    };
    let r = run(&env.spec("shm", None), Role::Reader, FILL, &l).await;
    assert_eq!(
        r.outcome,
        Outcome::LimitExceeded {
            limit: LimitKind::DiskSpace
        },
        "{r:?}"
    );
    let src = "import os\nst = os.statvfs('/dev/shm')\nprint(st.f_blocks * st.f_frsize)\n\
               try:\n    open('/dev/fill', 'wb').write(b'x')\n    print('dev writable')\n\
               except OSError as e:\n    print(e.errno)\n";
    let r = run(&env.spec("dev", None), Role::Reader, src, &l).await;
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    let lines: Vec<&str> = r.stdout.text.lines().collect();
    assert_eq!(lines[0], (4u64 << 20).to_string(), "{lines:?}");
    assert_eq!(lines[1], libc::EROFS.to_string(), "{lines:?}");
    // Multiprocessing's POSIX semaphores (in /dev/shm) still work.
    let src = "import multiprocessing as m\nl = m.Lock()\nwith l:\n    print('locked')\n";
    let r = run(&env.spec("sem", None), Role::Reader, src, &limits(30.0)).await;
    assert_eq!(r.stdout.text.trim(), "locked", "{r:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tmpfs_writes_past_the_memory_cgroup_limit_are_the_memory_limit() {
    let _g = SERIAL.lock().await;
    if let Err(why) = MemoryCgroup::create(1 << 20) {
        // The machine allows no memory cgroup: the run notes it and relies on rlimits.
        eprintln!("no memory cgroup here ({why}); checking the note instead");
        let env = Env::new();
        let r = run(
            &env.spec("nocg", None),
            Role::Reader,
            "pass\n",
            &limits(30.0),
        )
        .await;
        assert!(
            r.notes.iter().any(|n| n.contains("no memory cgroup")),
            "{r:?}"
        );
        return;
    }
    let env = Env::new();
    // Both tmpfs mounts are far larger than the cgroup's 48 MiB: only the cgroup stops this.
    let l = Limits {
        memory_bytes: 48 << 20,
        shm_bytes: 512 << 20,
        tmp_bytes: 512 << 20,
        ..limits(60.0)
    };
    let src = "import os\nfor d in ('/tmp', '/dev/shm'):\n    with open(d + '/fill', 'wb') as f:\n\
               \x20       for _ in range(200):\n            f.write(b'x' * (1 << 20))\n            f.flush()\n";
    let r = run(&env.spec("cg", None), Role::Reader, src, &l).await;
    assert_eq!(
        r.outcome,
        Outcome::LimitExceeded {
            limit: LimitKind::Memory
        },
        "{r:?}"
    );
    assert!(
        r.notes.iter().any(|n| n.starts_with("memory cgroup peak")),
        "{:?}",
        r.notes
    );
    // The engine goes on: a normal run after it succeeds.
    let r = run(
        &env.spec("after", None),
        Role::Reader,
        "print('ok')\n",
        &limits(30.0),
    )
    .await;
    assert_eq!(r.stdout.text.trim(), "ok", "{r:?}");
}

/// The probe: calls each refused system call with harmless arguments (ones that fail or do
/// nothing without the filter, so `EPERM` can only come from it) and prints `{name: errno}`.
fn probe_source() -> String {
    let calls: Vec<String> = DENIED
        .iter()
        .map(|(name, nr)| {
            // ptrace(0) would be PTRACE_TRACEME: ask for an unknown request instead.
            let args = if *name == "ptrace" {
                "0xdead, 0, 0, 0"
            } else {
                "0, 0, 0, 0, 0, 0"
            };
            format!("    ({name:?}, {nr}, ({args})),")
        })
        .collect();
    format!(
        r#"
import ctypes, json, os, threading
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def call(nr, args):
    ctypes.set_errno(0)
    r = libc.syscall(ctypes.c_long(nr), *[ctypes.c_long(a) for a in args])
    return ctypes.get_errno() if r == -1 else 0
out = {{}}
for name, nr, args in [
{calls}
]:
    out[name] = call(nr, args)
# clone asking for a new user namespace (with CLONE_FS, which the kernel itself rejects with
# EINVAL, so no child can ever start here).
out["clone(CLONE_NEWUSER)"] = call({clone}, (0x10000000 | 0x200, 0, 0, 0, 0))
out["ioctl(TIOCSTI)"] = call({ioctl}, (0, 0x5412, 0))
out["clone3"] = call({clone3}, (0, 0))
# What must keep working.
t = threading.Thread(target=lambda: None); t.start(); t.join()
pid = os.fork()
if pid == 0:
    os._exit(7)
out["fork_status"] = os.waitpid(pid, 0)[1] >> 8
out["getpid"] = call({getpid}, ())
out["seccomp_mode"] = [l.split()[1] for l in open("/proc/self/status") if l.startswith("Seccomp:")][0]
print(json.dumps(out))
"#,
        calls = calls.join("\n"),
        clone = libc::SYS_clone,
        ioctl = libc::SYS_ioctl,
        clone3 = libc::SYS_clone3,
        getpid = libc::SYS_getpid,
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seccomp_probe_gets_eperm_for_every_refused_call() {
    let _g = SERIAL.lock().await;
    let env = Env::new();
    let r = run(
        &env.spec("probe", None),
        Role::Golden,
        &probe_source(),
        &limits(30.0),
    )
    .await;
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    let got: Value = serde_json::from_str(r.stdout.text.trim()).expect("probe output");
    eprintln!("seccomp probe: {got}");
    for (name, _) in DENIED {
        assert_eq!(got[name], libc::EPERM, "{name}: {got}");
    }
    assert_eq!(got["clone(CLONE_NEWUSER)"], libc::EPERM, "{got}");
    assert_eq!(got["ioctl(TIOCSTI)"], libc::EPERM, "{got}");
    assert_eq!(got["clone3"], libc::ENOSYS, "{got}");
    assert_eq!(got["fork_status"], 7, "{got}");
    assert_eq!(got["getpid"], 0, "{got}");
    assert_eq!(got["seccomp_mode"], "2", "{got}");
}
