//! Open environments: public CUA-Gym bundles run as they were published.
//!
//! - [`resolve`]: the app a bundle names (`os`, `gmail`, `mock_websites`…) mapped to an app this
//!   harness serves, through built-in and configured aliases (`[apps.aliases]`, `[apps.ports]`) and
//!   the Hub hosts, placeholders and ports its scripts use ([`hints`]). One narrow interface:
//!   [`AppResolver::resolve`].
//! - [`external`]: `[[apps.external]]` apps (a command with `{port}` or a URL, a readiness probe,
//!   the `hub-legacy` / `hub-hardened` / `tuplewright` state-API dialects), started and torn down
//!   by the harness.
//! - [`judge`]: the configured model behind the `reward_judge` helper, served to each sandboxed
//!   script run over its own unix socket, bounded and recorded as `judge` usage.
//! - [`schema`]: an app's state schema (data collections and their kinds, configuration), declared
//!   or inferred, which the probes empty and wipe and which a setup's state must fit.
//! - [`tls`]: the per-process certificate authority and the `*.xlang.ai` leaf with which the
//!   sandbox's forwarder answers HTTPS to the public Hub hosts (the CA is what scripts trust).
//!
//! What happens at run time (URL localisation, the sid a setup mints, GUI launch lines, the
//! `reward_judge` shim) lives in `sandbox::localise`, fed by [`AppResolver::localise`]. See
//! docs/open-environments.md.

pub mod external;
pub mod hints;
pub mod judge;
pub mod localise;
pub mod resolve;
pub mod schema;
pub mod tls;

pub use external::{Dialect, ExternalApp, ExternalAppConfig};
pub use hints::Hints;
pub use localise::Localise;
pub use resolve::{builtin_aliases, AppResolver, AppsConfig};
pub use schema::{FieldKind, StateSchema};
