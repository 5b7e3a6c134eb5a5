//! Every JSON example of `docs/formats.md` is read by skinscope's own parser on the built-in
//! mannequin: the documented formats stay what the code reads.

use std::path::Path;

/// The JSON block after each `<!-- format: NAME -->` marker, by name.
fn examples() -> Vec<(String, String)> {
    let doc = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/formats.md");
    let text = std::fs::read_to_string(doc).unwrap();
    let mut out = Vec::new();
    for part in text.split("<!-- format: ").skip(1) {
        let name = part[..part.find(" -->").unwrap()].to_string();
        let body = &part[part.find("```json\n").unwrap() + 8..];
        out.push((name, body[..body.find("\n```").unwrap()].to_string()));
    }
    out
}

#[test]
fn every_documented_format_example_is_read_by_its_parser() {
    let c = skinscope::builtin::character().unwrap();
    let found = examples();
    let names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "graph", "ground", "drivers", "muscles", "retarget", "retarget"
        ]
    );
    for (name, json) in &found {
        match name.as_str() {
            "graph" => {
                skinscope::graph::Graph::parse(json, &c).unwrap();
            }
            "ground" => {
                let ground = skinscope::scene::Ground::parse(json).unwrap();
                // On the step, and half-way up the slope from 0 to 0.5 over x 3..5.
                assert_eq!(ground.height(1.5, 0.0), 0.2);
                assert!((ground.height(4.0, 0.0) - 0.25).abs() < 1e-6);
            }
            "drivers" => {
                let set = skinscope::pose::DriverSet::parse(json, &c).unwrap();
                assert_eq!(set.drivers.len(), 1);
            }
            "muscles" => {
                let rig = skinscope::pose::MuscleRig::parse(json, &c).unwrap();
                assert_eq!(rig.system.bodies.len(), 1);
            }
            "retarget" => {
                let dir =
                    std::env::temp_dir().join(format!("skinscope-fmt-{}", std::process::id()));
                std::fs::create_dir_all(&dir).unwrap();
                let path = dir.join("map.json");
                std::fs::write(&path, json).unwrap();
                let plan = skinscope::import::read_map(&path).unwrap();
                let pairs = plan.pairs().unwrap();
                assert!(pairs.contains(&("mixamorig:Hips".to_string(), "pelvis".to_string())));
                assert_eq!(pairs.len(), 3);
                // The saved form's settings, where the example gives them.
                if json.contains("ik_limbs") {
                    assert!(plan.settings.ik_limbs);
                    assert_ne!(plan.settings, Default::default());
                }
                std::fs::remove_dir_all(&dir).unwrap();
            }
            other => panic!("no parser for {other}"),
        }
    }
}
