//! Every malformed file of `../shared/gltf-invalid` is refused with an error naming its JSON
//! pointer, or, where the viewer can work around the problem, loads and reports it.

use skinscope_testkit as common;

use common::shared_invalid;
use skinscope_import as import;

enum Expect {
    /// Refused; the errors include this pointer. `true` when the glTF Validator's report names
    /// the same pointer for one of its errors.
    Refused(&'static str, bool),
    /// Loads, with warnings at these pointers.
    Loads(&'static [&'static str]),
}
use Expect::*;

/// Several of these files declare accessors with no data (zeros) or buffers with no source: the
/// validator checks their structure only, the importer also their data. All-zero key times repeat
/// one time: the earlier keys are dropped with a warning.
const CASES: &[(&str, Expect)] = &[
    ("accessor/alignment.gltf", Refused("/accessors/3", true)),
    (
        "accessor/matrix_alignment.gltf",
        Refused("/accessors/0", true),
    ),
    // The non-finite values are in an accessor nothing uses.
    ("accessor_data/invalid_elements_float.gltf", Loads(&[])),
    // A matrix node is decomposed to TRS (as three.js does); the channel overrides its part.
    (
        "animation/channel_node_matrix.gltf",
        Loads(&["/animations/0/channels/0/target"]),
    ),
    (
        "animation/sampler_bufferview_bytestride.gltf",
        Refused("/bufferViews/0/buffer", false),
    ),
    // Key-time bounds are computed from the data.
    (
        "animation/sampler_input_no_bounds.gltf",
        Loads(&["/animations/0/samplers/0/input"]),
    ),
    (
        "animation/sampler_output_format_invalid.gltf",
        Refused("/animations/0/channels/0/sampler", true),
    ),
    (
        "animation/unresolved_channel_target.gltf",
        Refused("/animations/0/channels/0/target/node", true),
    ),
    (
        "animation/unresolved_sampler_output.gltf",
        Refused("/animations/0/samplers/0/output", true),
    ),
    (
        "animation_data/invalid_input_values.gltf",
        Refused("/animations/0/samplers/0/input", true),
    ),
    // Non-unit key rotations are normalised.
    (
        "animation_data/quaternion_non_unit_values.gltf",
        Loads(&["/animations/0/samplers/0/output"]),
    ),
    (
        "buffer/wrong_bytelength.glb",
        Refused("/buffers/0/byteLength", false),
    ),
    (
        "buffer_view/unresolved_buffer.gltf",
        Refused("/bufferViews/0/buffer", true),
    ),
    // The header declares one byte more than the file has: every chunk is whole, so the file loads
    // with a warning (the validator calls it an error).
    ("glb/length_mismatch.glb", Loads(&[""])),
    (
        "mesh/morph_attribute_invalid_count.gltf",
        Refused("/meshes/0/primitives/0/targets/0/POSITION", true),
    ),
    (
        "mesh/morph_unequal_targets_count.gltf",
        Refused("/meshes/0/primitives/1/targets", true),
    ),
    (
        "mesh/unequal_joints.gltf",
        Refused("/meshes/0/primitives/0/attributes", true),
    ),
    (
        "mesh_data/joints_no_weights.gltf",
        Refused("/bufferViews/0/byteLength", true),
    ),
    ("node/node_loop.gltf", Refused("/nodes/0", true)),
    (
        "node/node_parent_override.gltf",
        Refused("/nodes/1/children/0", true),
    ),
    (
        "node/node_skinned_mesh_without_skin.gltf",
        Loads(&["/nodes/0"]),
    ),
    // A skin on a node without a mesh has nothing to deform: ignored.
    ("node/skin_with_no_mesh.gltf", Loads(&["/nodes/0/skin"])),
    ("node/unresolved_skin.gltf", Refused("/nodes/0/skin", true)),
    (
        "skin/buffer_view_bytestride.gltf",
        Refused("/bufferViews/0/buffer", false),
    ),
    (
        "skin/ibm_invalid_count.gltf",
        Refused("/skins/2/inverseBindMatrices", true),
    ),
    (
        "skin/ignored_animated_transform.gltf",
        Loads(&["/animations/0/channels/0/target/path"]),
    ),
    ("skin/ignored_parent_transform.gltf", Loads(&["/nodes/2"])),
    // Joints outside the scene are posed from their own roots (AssetGenerator's Animation_Skin_03).
    // Said at the node that draws with the skin, where the glTF-Validator points.
    ("skin/no_joints_in_scene.gltf", Loads(&["/nodes/2"])),
    (
        "skin/unresolved_ibm.gltf",
        Refused("/skins/0/inverseBindMatrices", true),
    ),
    (
        "skin/unresolved_skeleton.gltf",
        Refused("/skins/0/skeleton", true),
    ),
    (
        // Not affine: loaded with a warning and drawn as the file says (a skinning-debug tool
        // shows broken skins; the validator calls it an error).
        "skin_data/invalid_ibm.gltf",
        Loads(&["/skins/0/inverseBindMatrices"]),
    ),
];

/// Pointers of the validator's messages of one severity (0 error, 1 warning).
fn validator_pointers(rel: &str, severity: u64) -> Vec<String> {
    let report = std::fs::read(shared_invalid(&format!("{rel}.report.json"))).unwrap();
    let report: serde_json::Value = serde_json::from_slice(&report).unwrap();
    report["issues"]["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["severity"].as_u64() == Some(severity))
        .map(|m| m["pointer"].as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn every_malformed_file_is_refused_or_loads_with_warnings() {
    let mut failures = Vec::new();
    for (rel, expect) in CASES {
        let path = shared_invalid(rel);
        let result = import::load(&path);
        match (expect, result) {
            (Refused(pointer, validator_agrees), Err(e)) => {
                let pointers: Vec<&str> = e.errors.iter().map(|p| p.pointer.as_str()).collect();
                if !pointers.contains(pointer) {
                    failures.push(format!(
                        "{rel}: expected an error at {pointer:?}, got {pointers:?}"
                    ));
                }
                let text = e.to_string();
                if !text.contains(rel.rsplit('/').next().unwrap()) || !text.contains(pointer) {
                    failures.push(format!(
                        "{rel}: the message does not name the file and pointer: {text}"
                    ));
                }
                if *validator_agrees {
                    let validator = validator_pointers(rel, 0);
                    if !validator
                        .iter()
                        .any(|v| v == pointer || v.starts_with(&format!("{pointer}/")))
                    {
                        failures.push(format!(
                            "{rel}: the validator's errors are at {validator:?}, not {pointer}"
                        ));
                    }
                }
            }
            (Loads(warnings), Ok(c)) => {
                let got: Vec<&str> = c
                    .warnings
                    .iter()
                    .chain(&c.notes)
                    .map(|p| p.pointer.as_str())
                    .collect();
                for w in *warnings {
                    if !got.contains(w) {
                        failures.push(format!("{rel}: expected a warning at {w}, got {got:?}"));
                    }
                }
            }
            (Refused(..), Ok(_)) => failures.push(format!("{rel}: loaded, expected a refusal")),
            (Loads(_), Err(e)) => {
                failures.push(format!("{rel}: refused, expected it to load: {e}"))
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_malformed_file_is_in_the_table() {
    let root = shared_invalid("");
    let mut found = Vec::new();
    for dir in std::fs::read_dir(&root).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&dir).unwrap() {
            let f = f.unwrap().path();
            if matches!(f.extension().and_then(|e| e.to_str()), Some("gltf" | "glb")) {
                found.push(
                    f.strip_prefix(&root)
                        .unwrap()
                        .to_string_lossy()
                        .replace('\\', "/"),
                );
            }
        }
    }
    found.sort();
    let mut listed: Vec<String> = CASES.iter().map(|c| c.0.to_string()).collect();
    listed.sort();
    assert_eq!(found, listed);
}

#[test]
fn files_with_only_validator_warnings_load() {
    // The validator's warning-only files in this set must load (its warnings are work-arounds).
    for (rel, _) in CASES {
        if validator_pointers(rel, 0).is_empty() {
            assert!(import::load(&shared_invalid(rel)).is_ok(), "{rel}");
        }
    }
}
