//! App resolution: the names the ecosystem uses (`os`, `gmail`, `jira`, the category
//! `mock_websites`…) mapped to the apps this harness serves, with errors that say what exists and
//! the exact `tuplewright.toml` line that would map an unknown name.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::hints::{hub_host, Hints};
use super::Localise;

/// Names the public ecosystem uses for the built-in apps (OSWorld's `os` is the files domain):
/// each pack's `aliases` ([`crate::apps`]), as (alias, app).
pub fn builtin_aliases() -> Vec<(String, String)> {
    crate::apps::all()
        .iter()
        .flat_map(|p| {
            p.manifest
                .aliases
                .iter()
                .map(move |a| (a.clone(), p.name().to_string()))
        })
        .collect()
}

/// Category names that name no app: the app is the one the scripts reach.
pub const CATEGORIES: &[&str] = &["mock_websites", "mock_website", "mock-websites"];

/// The self-hosted Hub convention: apps on ports 8000–8099 (`http://<host>:80NN`).
pub const SELF_HOSTED_PORTS: (u16, u16) = (8000, 8099);

/// `[apps]` of `tuplewright.toml`: more names for apps.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AppsConfig {
    /// Other names of apps, e.g. `outlook = "mail"` (added to, and overriding, the
    /// built-in aliases); the name is also the Hub host `cua-gym-<name>.xlang.ai`.
    pub aliases: BTreeMap<String, String>,
    /// Ports that reach an app on any host, e.g. `"8012" = "mail"` (a self-hosted Hub site's
    /// `http://<host>:8012`). Without one, a single-app environment takes every port of
    /// 8000–8099.
    pub ports: BTreeMap<String, String>,
    /// Apps tuplewright does not ship (`[[apps.external]]`), see `openenv::external`.
    pub external: Vec<super::ExternalAppConfig>,
    /// Folders of local packs (spec-built apps loaded at start-up, no rebuild), relative to the
    /// config file: each a pack (holding `app.spec.toml`) or a folder of packs. Unset: `apps/`
    /// beside the config file when it exists.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub packs: Option<Vec<std::path::PathBuf>>,
}

/// Maps requested app names to served ones.
#[derive(Debug, Clone)]
pub struct AppResolver {
    known: Vec<String>,
    aliases: BTreeMap<String, String>,
    ports: BTreeMap<u16, String>,
}

fn norm(name: &str) -> String {
    name.trim().to_ascii_lowercase().replace('_', "-")
}

impl AppResolver {
    /// The built-in aliases over `known` app names.
    pub fn builtin(known: Vec<String>) -> AppResolver {
        let aliases = builtin_aliases()
            .into_iter()
            .filter(|(_, to)| known.iter().any(|k| k == to))
            .map(|(from, to)| (norm(&from), to))
            .collect();
        AppResolver {
            known,
            aliases,
            ports: BTreeMap::new(),
        }
    }

    /// The built-in aliases plus `cfg`; an alias or port naming no app is an error quoting it.
    pub fn new(known: Vec<String>, cfg: &AppsConfig) -> Result<AppResolver, String> {
        let mut r = AppResolver::builtin(known);
        for (from, to) in &cfg.aliases {
            let target = r.canonical(to).ok_or_else(|| {
                format!(
                    "[apps.aliases] {from} = {to:?}: no app {to:?} (apps: {})",
                    r.known.join(", ")
                )
            })?;
            r.aliases.insert(norm(from), target);
        }
        for (port, to) in &cfg.ports {
            let p: u16 = port.parse().ok().filter(|p| *p > 0).ok_or_else(|| {
                format!("[apps.ports] {port:?} = {to:?}: the key must be a port in 1..65535")
            })?;
            let target = r.canonical(to).ok_or_else(|| {
                format!(
                    "[apps.ports] \"{port}\" = {to:?}: no app {to:?} (apps: {})",
                    r.known.join(", ")
                )
            })?;
            r.ports.insert(p, target);
        }
        Ok(r)
    }

    /// The served app a name means: itself, or what an alias maps it to.
    pub fn canonical(&self, name: &str) -> Option<String> {
        let n = norm(name);
        if let Some(k) = self.known.iter().find(|k| norm(k) == n) {
            return Some(k.clone());
        }
        self.aliases.get(&n).cloned()
    }

    /// Every name that means `app` (itself first, then its aliases).
    pub fn names_of(&self, app: &str) -> Vec<String> {
        let mut out = vec![app.to_string()];
        out.extend(
            self.aliases
                .iter()
                .filter(|(_, to)| to.as_str() == app)
                .map(|(from, _)| from.clone()),
        );
        out
    }

    /// The error for an app name nothing here serves. It suggests serving the app the bundle was
    /// written for as `[[apps.external]]`, never an alias to one of the apps here: whether a
    /// bundle's state fits another app's schema is only known once its setup ran (a state that
    /// does not fit is refused then).
    fn unknown(&self, task: &str, name: &str, why: &str) -> String {
        format!(
            "task {task}: {why}; available apps: {}. To run it, serve the app it was written for \
             (e.g. the CUA-Gym-Hub site) — add to tuplewright.toml:\n  [[apps.external]]\n  \
             name = \"{}\"\n  command = \"npm run dev -- --port {{port}} --strictPort\"   \
             # or url = \"http://127.0.0.1:5173\"\n  dialect = \"hub-legacy\"\n\
             (see docs/open-environments.md)",
            self.known.join(", "),
            name.trim().to_ascii_lowercase(),
        )
    }

    /// The served apps of a task that asked for `requested`, with `hints` from its texts. A
    /// category (`mock_websites`) becomes the apps its scripts reach.
    pub fn resolve(
        &self,
        task: &str,
        requested: &[String],
        hints: &Hints,
    ) -> Result<Vec<String>, String> {
        let mut out: Vec<String> = Vec::new();
        for name in requested {
            let found = if CATEGORIES.contains(&name.trim()) {
                self.apps_in_hints(task, name, hints)?
            } else {
                let app = self
                    .canonical(name)
                    .ok_or_else(|| self.unknown(task, name, &format!("unknown app {name:?}")))?;
                vec![app]
            };
            for a in found {
                if !out.contains(&a) {
                    out.push(a);
                }
            }
        }
        Ok(out)
    }

    fn apps_in_hints(
        &self,
        task: &str,
        category: &str,
        hints: &Hints,
    ) -> Result<Vec<String>, String> {
        let mut out = Vec::new();
        for (name, kind) in hints.named() {
            let app = self.canonical(&name).ok_or_else(|| {
                let seen = match kind {
                    "host" => format!("the scripts reach {}", hub_host(&name)),
                    "placeholder" => format!(
                        "the scripts use __CUA_GYM_{}_URL__",
                        super::hints::placeholder_name(&name)
                    ),
                    _ => format!("the task's `mock` is {name:?}"),
                };
                self.unknown(
                    task,
                    &name,
                    &format!("{seen}, which is no app here (category {category:?})"),
                )
            })?;
            if !out.contains(&app) {
                out.push(app);
            }
        }
        if out.is_empty() {
            for p in &hints.ports {
                if let Some(app) = self.ports.get(p) {
                    if !out.contains(app) {
                        out.push(app.clone());
                    }
                }
            }
        }
        if out.is_empty() {
            let ports = if hints.ports.is_empty() {
                String::new()
            } else {
                let list: Vec<String> = hints.ports.iter().map(u16::to_string).collect();
                format!(" The scripts use port(s) {}; map one with\n  [apps.ports]\n  \"{}\" = \"<app>\"\nin tuplewright.toml.", list.join(", "), hints.ports[0])
            };
            return Err(format!(
                "task {task}: app {category:?} is a category, and nothing says which app: the \
                 scripts reach no Hub host (https://cua-gym-<app>.xlang.ai), use no \
                 __CUA_GYM_<APP>_URL__ placeholder, and the task has no `mock` field. Name the \
                 app in the task's `domains` (apps: {}).{ports}",
                self.known.join(", ")
            ));
        }
        Ok(out)
    }

    /// How an environment serving `web` apps (`(app, port)`, the primary first) answers the
    /// addresses public scripts hard-code: the Hub hosts of every name of each app, and the
    /// configured ports — or, for a single-app environment, the whole self-hosted range.
    pub fn localise(&self, web: &[(String, u16)]) -> Localise {
        let mut loc = Localise::default();
        for (app, _) in web {
            for name in self.names_of(app) {
                loc.hub_names.push((name, app.clone()));
            }
        }
        for (port, app) in &self.ports {
            if web.iter().any(|(a, _)| a == app) {
                loc.ports.push((*port, *port, app.clone()));
            }
        }
        if let [(app, _)] = web {
            loc.ports
                .push((SELF_HOSTED_PORTS.0, SELF_HOSTED_PORTS.1, app.clone()));
        }
        loc
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn known() -> Vec<String> {
        [
            "ecommerce-admin",
            "files",
            "issue-tracker",
            "mail",
            "team-chat",
        ]
        .map(String::from)
        .to_vec()
    }

    #[test]
    fn ecosystem_names_map_to_builtin_apps() {
        let r = AppResolver::builtin(known());
        let h = Hints::default();
        let ours: Vec<_> = builtin_aliases()
            .into_iter()
            .filter(|(_, to)| known().contains(to))
            .collect();
        assert_eq!(ours.len(), 6);
        for (from, to) in ours {
            assert_eq!(
                r.resolve("t", std::slice::from_ref(&from), &h).unwrap(),
                vec![to]
            );
        }
        assert_eq!(r.resolve("t", &["Mail".into()], &h).unwrap(), vec!["mail"]);
    }

    /// A built-in alias written with an underscore (`google_docs`, as the Hub names its mocks)
    /// reaches its app from the Hub host, which spells it with a dash
    /// (`cua-gym-google-docs.xlang.ai`). Failed before the built-in aliases were normalised.
    #[test]
    fn an_underscore_alias_reaches_its_app_from_the_dashed_hub_host() {
        let mut names = known();
        names.extend(["calendar", "docs"].map(String::from));
        let r = AppResolver::builtin(names);
        let h = Hints::gather(&["B = 'https://cua-gym-google-docs.xlang.ai'"], &json!({}));
        let apps = r.resolve("t", &["mock_websites".into()], &h).unwrap();
        assert_eq!(apps, vec!["docs"]);
        let h = Hints::gather(
            &["B = 'https://cua-gym-google-calendar.xlang.ai'"],
            &json!({}),
        );
        let apps = r.resolve("t", &["mock_websites".into()], &h).unwrap();
        assert_eq!(apps, vec!["calendar"]);
        let by_name = r.resolve("t", &["google_calendar".into()], &Hints::default());
        assert_eq!(by_name.unwrap(), vec!["calendar"]);
    }

    #[test]
    fn mock_websites_takes_the_app_of_the_hub_host() {
        let r = AppResolver::builtin(known());
        let h = Hints::gather(&["u = 'https://cua-gym-gmail.xlang.ai/go'"], &json!({}));
        let apps = r.resolve("t", &["mock_websites".into()], &h).unwrap();
        assert_eq!(apps, vec!["mail"]);
    }

    #[test]
    fn unknown_hub_host_names_the_host_and_the_config_line() {
        let r = AppResolver::builtin(known());
        let h = Hints::gather(&["u = 'https://cua-gym-notion.xlang.ai'"], &json!({}));
        let err = r.resolve("t1", &["mock_websites".into()], &h).unwrap_err();
        assert!(err.contains("cua-gym-notion.xlang.ai"), "{err}");
        assert!(
            err.contains("[[apps.external]]\n  name = \"notion\""),
            "{err}"
        );
        assert!(err.contains("team-chat"), "{err}");
        // No alias is suggested: a bundle written for another app does not fit these.
        assert!(!err.contains("[apps.aliases]"), "{err}");
        let err = r
            .resolve("t1", &["google_calendar".into()], &Hints::default())
            .unwrap_err();
        assert!(
            err.contains("unknown app \"google_calendar\"")
                && err.contains("name = \"google_calendar\"")
                && !err.contains("[apps.aliases]")
                && !err.contains("<one of"),
            "{err}"
        );
    }

    #[test]
    fn configured_aliases_and_ports_resolve_and_bad_ones_are_quoted() {
        let mut cfg = AppsConfig::default();
        cfg.aliases.insert("notion".into(), "issue-tracker".into());
        cfg.ports.insert("8012".into(), "mail".into());
        let r = AppResolver::new(known(), &cfg).unwrap();
        let h = Hints::gather(&["https://cua-gym-notion.xlang.ai"], &json!({}));
        assert_eq!(
            r.resolve("t", &["mock_websites".into()], &h).unwrap(),
            vec!["issue-tracker"]
        );
        let h = Hints::gather(&["http://10.1.2.3:8012/go"], &json!({}));
        assert_eq!(
            r.resolve("t", &["mock_websites".into()], &h).unwrap(),
            vec!["mail"]
        );
        let loc = r.localise(&[("mail".into(), 3102)]);
        assert!(loc.ports.contains(&(8012, 8012, "mail".into())));
        assert!(loc.hub_names.contains(&("gmail".into(), "mail".into())));
        cfg.aliases.insert("x".into(), "nope".into());
        let err = AppResolver::new(known(), &cfg).unwrap_err();
        assert!(err.contains("[apps.aliases] x = \"nope\""), "{err}");
    }

    #[test]
    fn a_category_with_no_evidence_says_what_was_looked_for() {
        let r = AppResolver::builtin(known());
        let h = Hints::gather(&["requests.get('http://localhost:8077/go')"], &json!({}));
        let err = r.resolve("t", &["mock_websites".into()], &h).unwrap_err();
        assert!(err.contains("https://cua-gym-<app>.xlang.ai"), "{err}");
        assert!(
            err.contains("[apps.ports]\n  \"8077\" = \"<app>\""),
            "{err}"
        );
    }
}
