//! The reports of `check` and `diff` as CI systems read them: JUnit XML (what CI systems show as
//! test results: a test case per finding or compared part, errors as failures) and SARIF 2.1.0
//! (what code-scanning views show: a result per finding or difference, its rule, level and
//! location, the JSON pointer as a logical location).

use serde_json::{Value, json};
use skinscope::debug::check::{CheckReport, Severity};
use skinscope::debug::diff::DiffReport;

/// How a report is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ReportFormat {
    Text,
    Json,
    Junit,
    Sarif,
}

/// `text` with XML's five special characters escaped (and control characters dropped).
fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out += "&amp;",
            '<' => out += "&lt;",
            '>' => out += "&gt;",
            '"' => out += "&quot;",
            '\'' => out += "&apos;",
            '\n' | '\t' => out.push(c),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// One JUnit test case: its name, and its failure message when it failed.
struct Case {
    name: String,
    failure: Option<String>,
    output: String,
}

fn junit(suite: &str, file: &str, cases: &[Case]) -> String {
    let failures = cases.iter().filter(|c| c.failure.is_some()).count();
    let mut s = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"{}\" failures=\"{failures}\">\n  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\">\n",
        cases.len(),
        xml(&format!("{suite} {file}")),
        cases.len()
    );
    for c in cases {
        s += &format!(
            "    <testcase classname=\"{}\" name=\"{}\">\n",
            xml(&format!("{suite}.{file}")),
            xml(&c.name)
        );
        if let Some(f) = &c.failure {
            s += &format!(
                "      <failure message=\"{}\">{}</failure>\n",
                xml(f),
                xml(f)
            );
        }
        if !c.output.is_empty() {
            s += &format!("      <system-out>{}</system-out>\n", xml(&c.output));
        }
        s += "    </testcase>\n";
    }
    s += "  </testsuite>\n</testsuites>\n";
    s
}

/// A finding's rule: the glTF-Validator's code where it has one, else the finding's kind.
fn rule_of(kind: &Value, code: Option<&str>) -> String {
    code.map_or_else(
        || kind.as_str().unwrap_or("finding").to_owned(),
        str::to_owned,
    )
}

/// `check` as JUnit: a test case per error or warning (errors fail), or one passing case for a
/// clean file.
pub fn check_junit(report: &CheckReport) -> String {
    let mut cases: Vec<Case> = (report.findings.iter())
        .filter(|f| f.severity != Severity::Info)
        .map(|f| {
            let kind = serde_json::to_value(f.kind).unwrap_or_default();
            let mut name = rule_of(&kind, f.code);
            if let Some(j) = f.joint.as_ref().or(f.pointer.as_ref()) {
                name += &format!(" ({j})");
            }
            Case {
                name,
                failure: (f.severity == Severity::Error).then(|| f.message.clone()),
                output: if f.severity == Severity::Warning {
                    format!("warning: {}", f.message)
                } else {
                    String::new()
                },
            }
        })
        .collect();
    if cases.is_empty() {
        cases.push(Case {
            name: "skinning".into(),
            failure: None,
            output: report.to_text(),
        });
    }
    junit("check", &report.file, &cases)
}

/// One SARIF run of skinscope's results on `file`.
fn sarif(file: &str, results: Vec<Value>) -> String {
    let mut rules: Vec<String> = results
        .iter()
        .filter_map(|r| r["ruleId"].as_str().map(str::to_owned))
        .collect();
    rules.sort();
    rules.dedup();
    let doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "skinscope",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules.iter().map(|r| json!({"id": r})).collect::<Vec<_>>(),
            }},
            "artifacts": [{"location": {"uri": file}}],
            "results": results,
        }],
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}

fn result(rule: &str, level: &str, text: &str, file: &str, logical: Option<&str>) -> Value {
    let mut location = json!({"physicalLocation": {"artifactLocation": {"uri": file, "index": 0}}});
    if let Some(l) = logical {
        location["logicalLocations"] = json!([{"fullyQualifiedName": l}]);
    }
    json!({"ruleId": rule, "level": level, "message": {"text": text}, "locations": [location]})
}

/// `check` as SARIF: a result per finding (errors "error", warnings "warning", information
/// "note").
pub fn check_sarif(report: &CheckReport) -> String {
    let results = (report.findings.iter())
        .map(|f| {
            let kind = serde_json::to_value(f.kind).unwrap_or_default();
            let level = match f.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "note",
            };
            let logical = f.pointer.as_deref().or(f.joint.as_deref());
            result(
                &rule_of(&kind, f.code),
                level,
                &f.message,
                &report.file,
                logical,
            )
        })
        .collect();
    sarif(&report.file, results)
}

/// `diff` as JUnit: a test case per compared part (joints, weights, clips, deformation); the
/// deformation fails when `failed` (`--fail-over` was passed); the differences are each part's
/// output.
pub fn diff_junit(report: &DiffReport, failed: bool) -> String {
    let text = report.to_text();
    let lines = |prefixes: &[&str]| -> String {
        text.lines()
            .filter(|l| prefixes.iter().any(|p| l.starts_with(p)))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let cases = vec![
        Case {
            name: "joints".into(),
            failure: None,
            output: lines(&["joint", "rest pose", "inverse bind"]),
        },
        Case {
            name: "weights".into(),
            failure: None,
            output: lines(&["weights", "mesh not compared"]),
        },
        Case {
            name: "clips".into(),
            failure: None,
            output: lines(&["clip"]),
        },
        Case {
            name: "deformation".into(),
            failure: failed
                .then(|| lines(&["worst"]))
                .map(|w| format!("over --fail-over: {w}")),
            output: lines(&["bind pose", "worst"]),
        },
    ];
    junit("diff", &report.b, &cases)
}

/// `diff` as SARIF: a result per difference, on B, its rule the kind of difference
/// (`diff.joint_added`, `diff.rest_pose`, `diff.deformation`, ...); the deformation a "warning"
/// when it failed `--fail-over`, every other difference a "note".
pub fn diff_sarif(report: &DiffReport, failed: bool) -> String {
    let mut results = Vec::new();
    let mut note = |rule: &str, text: String, logical: Option<&str>| {
        results.push(result(
            &format!("diff.{rule}"),
            "note",
            &text,
            &report.b,
            logical,
        ));
    };
    let j = &report.joints;
    for n in &j.added {
        note("joint_added", format!("joint {n} added"), Some(n));
    }
    for n in &j.removed {
        note("joint_removed", format!("joint {n} removed"), Some(n));
    }
    for r in &j.renamed {
        note(
            "joint_renamed",
            format!("joint {} renamed {}", r.from, r.to),
            Some(&r.to),
        );
    }
    for r in &j.reparented {
        let text = format!(
            "joint {} re-parented from {} to {}",
            r.joint,
            r.from.as_deref().unwrap_or("(root)"),
            r.to.as_deref().unwrap_or("(root)")
        );
        note("joint_reparented", text, Some(&r.joint));
    }
    for r in &j.rest {
        let text = format!(
            "rest pose of {}: moved {:.4}, turned {:.2} deg, scaled {:.4}",
            r.joint, r.moved, r.turned_degrees, r.scaled
        );
        note("rest_pose", text, Some(&r.joint));
    }
    for b in &j.inverse_binds {
        let text = format!(
            "inverse bind of {} (skin {}): largest element change {:.4}, bind position moved {:.4}",
            b.joint, b.skin, b.largest_element, b.moved
        );
        note("inverse_bind", text, Some(&b.joint));
    }
    for w in &report.weights {
        let text = format!(
            "weights of {}: {} vertices changed dominant joint, largest weight change {:.4}",
            w.mesh, w.dominant_changed, w.largest_weight_change
        );
        note("weights", text, Some(&w.mesh));
    }
    for n in &report.clips.added {
        note("clip_added", format!("clip {n} added"), Some(n));
    }
    for n in &report.clips.removed {
        note("clip_removed", format!("clip {n} removed"), Some(n));
    }
    for c in &report.clips.changed {
        let text = format!(
            "clip {}: {:.3} s -> {:.3} s, joints move up to {:.4}",
            c.clip, c.duration_a, c.duration_b, c.largest_joint_displacement
        );
        note("clip_changed", text, Some(&c.clip));
    }
    for d in (report.clips.bind.iter()).chain(
        report
            .clips
            .changed
            .iter()
            .filter_map(|c| c.deformation.as_ref()),
    ) {
        let text = format!(
            "vertices move up to {:.4} ({:.3}% of the size) in {} at {:.3} s",
            d.displacement,
            d.relative * 100.0,
            d.clip.as_deref().unwrap_or("the bind pose"),
            d.time
        );
        let level = if failed && report.worst.as_ref() == Some(d) {
            "warning"
        } else {
            "note"
        };
        results.push(result(
            "diff.deformation",
            level,
            &text,
            &report.b,
            Some(&d.mesh),
        ));
    }
    sarif(&report.b, results)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_special_characters_are_escaped() {
        assert_eq!(
            xml("a<b & \"c\" 'd'>\u{1}"),
            "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;"
        );
    }
}
