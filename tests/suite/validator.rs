//! `check`'s issue codes against the Khronos glTF-Validator's own reports: over the validator's
//! negative test assets (`../shared/gltf-invalid`, each beside its `.report.json`), every
//! skin-related error and warning the validator reports is reported by skinscope with the same
//! code at the same JSON pointer, whether the file loads (a finding of `check`) or is refused
//! (the refusal's problems).

use std::path::Path;

use crate::common;

use serde_json::Value;
use skinscope::import;
use skinscope::pose::PoseRequest;

/// A validator message about skinning: its code names joints, weights, inverse binds or skins,
/// or it points into a skin or at a node's skin.
fn skin_related(message: &Value) -> bool {
    let code = message["code"].as_str().unwrap_or("");
    let pointer = message["pointer"].as_str().unwrap_or("");
    ["JOINT", "WEIGHT", "IBM", "SKIN"]
        .iter()
        .any(|k| code.contains(k))
        || pointer.starts_with("/skins/")
        || pointer.ends_with("/skin")
}

/// What skinscope reports of a file: (code, pointer) of every coded problem.
fn ours(file: &Path) -> Vec<(String, String)> {
    match import::load(file) {
        Ok(c) => skinscope::debug::check::check(&c, &PoseRequest::default())
            .findings
            .iter()
            .filter_map(|f| Some((f.code?.to_owned(), f.pointer.clone().unwrap_or_default())))
            .collect(),
        Err(e) => (e.errors.iter().chain(&e.warnings))
            .filter_map(|p| Some((p.code?.to_owned(), p.pointer.clone())))
            .collect(),
    }
}

#[test]
fn check_agrees_with_the_validator_on_its_skin_assets() {
    let root = common::shared_invalid("");
    let mut rows = Vec::new();
    let (mut agreed, mut total) = (0, 0);
    for file in common::gltf_files(&root) {
        let report = file.with_file_name(format!(
            "{}.report.json",
            file.file_name().unwrap().to_str().unwrap()
        ));
        let Ok(text) = std::fs::read_to_string(&report) else {
            continue;
        };
        let report: Value = serde_json::from_str(&text).unwrap();
        let theirs: Vec<(String, String, u64)> = report["issues"]["messages"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["severity"].as_u64().unwrap() <= 1 && skin_related(m))
            .map(|m| {
                (
                    m["code"].as_str().unwrap().to_owned(),
                    m["pointer"].as_str().unwrap_or("").to_owned(),
                    m["severity"].as_u64().unwrap(),
                )
            })
            .collect();
        if theirs.is_empty() {
            continue;
        }
        let ours = ours(&file);
        for (code, pointer, severity) in theirs {
            total += 1;
            let same = ours.iter().any(|(c, p)| *c == code && *p == pointer);
            agreed += usize::from(same);
            rows.push(format!(
                "{} {code} at {pointer} ({}): {}",
                file.strip_prefix(&root).unwrap().display(),
                if severity == 0 { "error" } else { "warning" },
                if same { "agrees" } else { "MISSING" }
            ));
        }
    }
    eprintln!("{}", rows.join("\n"));
    eprintln!("agreement: {agreed} of {total} skin-related validator issues");
    assert!(total >= 10, "{rows:#?}");
    assert_eq!(agreed, total, "{rows:#?}");
}

#[test]
fn the_validator_reads_the_shared_characters_clean() {
    // The validator itself, run from the tests: the shared characters have no error, and a file
    // with one is reported (an inverse bind count short of the joints).
    for file in [
        "Fox/Fox.glb",
        "CesiumMan/CesiumMan.glb",
        "SimpleSkin/SimpleSkin.gltf",
    ] {
        let issues = common::validate(&common::shared(file));
        assert_eq!(issues["numErrors"], 0, "{file}: {issues:#}");
    }
    let issues = common::validate(&common::shared_invalid("skin/ibm_invalid_count.gltf"));
    let codes: Vec<&str> = issues["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["code"].as_str())
        .collect();
    assert!(codes.contains(&"INVALID_IBM_ACCESSOR_COUNT"), "{codes:?}");
}
