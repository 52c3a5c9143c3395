//! The generic task-generation recipe of spec apps: taxonomy leaves name `envgen:<app>:<action>`
//! and this recipe samples one of the tasks the action yields over the app's seed
//! ([`crate::envgen::tasks::for_action`]).

use super::{Ctx, Draft};

/// The recipe-name prefix of spec apps.
pub const PREFIX: &str = "envgen:";

/// Every spec recipe name (`envgen:<app>:<action>`) of the registered spec packs.
pub fn names() -> Vec<&'static str> {
    static NAMES: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    NAMES
        .get_or_init(|| {
            let mut out = Vec::new();
            for pack in crate::apps::all() {
                let Some(model) = spec_model(pack) else {
                    continue;
                };
                for a in model.actions() {
                    let name = format!("{PREFIX}{}:{}", model.name(), a.name);
                    out.push(&*Box::leak(name.into_boxed_str()));
                }
            }
            out
        })
        .clone()
}

fn spec_model(pack: &crate::apps::Pack) -> Option<crate::envgen::Model> {
    let text = pack.app.spec_text()?;
    let path = std::path::Path::new(pack.app.dir()).join("app.spec.toml");
    crate::envgen::parse(&path, text)
        .ok()
        .map(crate::envgen::Model::new)
}

/// Runs `envgen:<app>:<action>` (`rest` = `<app>:<action>`); `None` when the app or action is
/// unknown or the seed yields no task for it.
pub fn run(rest: &str, ctx: &mut Ctx<'_>) -> Option<Draft> {
    let (app, action) = rest.split_once(':')?;
    let pack = crate::apps::get(app)?;
    let model = spec_model(pack)?;
    // Derivation reads `map` entities as lists, as `envgen compile` does (docs' documents
    // yielded no task here before).
    let seed = crate::envgen::shape::as_lists(&model.spec, ctx.seeds.of(app));
    let tasks = crate::envgen::tasks::for_action(&model, &seed, action);
    if tasks.is_empty() {
        return None;
    }
    let v = ctx.idx(tasks.len());
    let t = &tasks[v];
    let text = |k: &str| t[k].as_str().unwrap_or_default().to_string();
    Some(ctx.draft(
        v,
        text("task_instruction"),
        text("context"),
        t["template"].as_str()?,
        t["slots"].clone(),
        vec![pack.name()],
    ))
}
