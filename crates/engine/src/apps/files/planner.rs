//! The files desktop's ui-oracle planner: each shipped files template done through the desktop's
//! terminal as one shell command.

use serde_json::{json, Value};

use crate::agents::TaskBrief;
use crate::rollout::ui_oracle_files::{python, shell_quote, terminal_steps};
use crate::rollout::ui_plan::{PlanStep, UiPlanner};
use crate::rollout::ui_plan::PlanRefusal;

/// The slots a template needs, or an error naming the missing one.
fn pick(slots: &Value, keys: &[&str], template: &str) -> Result<Value, String> {
    let mut out = serde_json::Map::new();
    for k in keys {
        let v = slots
            .get(*k)
            .ok_or_else(|| format!("template {template}: slot `{k}` missing"))?;
        out.insert((*k).to_string(), v.clone());
    }
    Ok(Value::Object(out))
}

/// The shell command that does a files template's effect.
pub fn files_command(template: &str, slots: &Value) -> Result<String, String> {
    Ok(match template {
        "csv_extract" => python(
            &pick(slots, &["output", "columns", "expected_rows"], template)?,
            "p='/home/user/'+S['output'];os.makedirs(os.path.dirname(p),exist_ok=True);\
             f=open(p,'w',newline='');w=csv.writer(f);w.writerow(S['columns']);\
             w.writerows(S['expected_rows']);f.close()",
        ),
        "json_edit" => python(
            &pick(slots, &["path", "changes"], template)?,
            "p='/home/user/'+S['path'];d=json.load(open(p));\
             [functools.reduce(lambda n,k:n.setdefault(k,{}),key.split('.')[:-1],d)\
             .__setitem__(key.split('.')[-1],v) for key,v in S['changes'].items()];\
             f=open(p,'w');json.dump(d,f,indent=1);f.close()",
        ),
        "md_checklist" => python(
            &pick(slots, &["path", "check", "add"], template)?,
            "p='/home/user/'+S['path'];L=open(p).read().splitlines();\
             o=['- [x] '+l[6:] if l.startswith('- [ ] ') and l[6:].strip() in S['check'] else l \
             for l in L]+['- [ ] '+i for i in S['add']];f=open(p,'w');\
             f.write(chr(10).join(o)+chr(10));f.close()",
        ),
        "write_report" => python(
            &pick(slots, &["path", "content"], template)?,
            "p='/home/user/'+S['path'];os.makedirs(os.path.dirname(p),exist_ok=True);\
             f=open(p,'w');f.write(S['content']);f.close()",
        ),
        "move_files" => {
            let files = slots
                .get("files")
                .and_then(Value::as_array)
                .ok_or_else(|| format!("template {template}: slot `files` missing"))?;
            let mut parts = Vec::new();
            for f in files {
                let field = |k: &str| {
                    f.get(k)
                        .and_then(Value::as_str)
                        .ok_or_else(|| format!("template {template}: files[].{k} missing"))
                };
                let to = format!("/home/user/{}", field("to")?);
                let from = format!("/home/user/{}/{}", field("from")?, field("name")?);
                parts.push(format!(
                    "mkdir -p {} && mv {} {}/",
                    shell_quote(&to),
                    shell_quote(&from),
                    shell_quote(&to)
                ));
            }
            parts.join(" && ")
        }
        other => return Err(format!("template {other} has no desktop plan")),
    })
}

/// Plans files tasks through the desktop's terminal.
pub struct FilesPlanner;

impl UiPlanner for FilesPlanner {
    fn apps(&self) -> &[&'static str] {
        &["files"]
    }

    fn plan(&self, brief: &TaskBrief) -> Result<Vec<PlanStep>, PlanRefusal> {
        let template = brief
            .structured
            .get("template")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("task {} names no template", brief.task_id))?;
        let template = template.rsplit('/').next().unwrap_or(template);
        let slots = brief.structured.get("slots").cloned().unwrap_or(json!({}));
        Ok(terminal_steps(&files_command(template, &slots)?))
    }
}

