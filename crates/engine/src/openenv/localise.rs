//! How an environment's apps answer the addresses a public script hard-codes (Hub hosts,
//! self-hosted ports): plain data the resolver ([`super::AppResolver::localise`]) builds and the
//! sandbox applies (`sandbox::localise`).

use serde::{Deserialize, Serialize};

/// How an environment's apps answer a public script's hard-coded addresses.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Localise {
    /// `(name, app)`: the Hub host `cua-gym-<name>.xlang.ai` reaches `app`.
    #[serde(default)]
    pub hub_names: Vec<(String, String)>,
    /// `(first, last, app)`: ports of any host that reach `app`.
    #[serde(default)]
    pub ports: Vec<(u16, u16, String)>,
}

impl Localise {
    /// Whether the run needs any routing.
    pub fn is_empty(&self) -> bool {
        self.hub_names.is_empty() && self.ports.is_empty()
    }

    /// The app a Hub name (or app name) in a placeholder stands for.
    pub fn app_of(&self, name: &str) -> Option<&str> {
        let n = name.to_ascii_lowercase().replace('_', "-");
        self.hub_names
            .iter()
            .find(|(h, a)| h.replace('_', "-") == n || a == &n)
            .map(|(_, a)| a.as_str())
    }

    /// Whether `app` answers HTTPS for some Hub host.
    pub fn has_hub_host(&self, app: &str) -> bool {
        self.hub_names.iter().any(|(_, a)| a == app)
    }
}
