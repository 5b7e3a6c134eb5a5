//! EXT_meshopt_compression with the `meshopt` feature (the default) and without it (the
//! browser's build, `scripts/test.sh` runs this file both ways): decoded to the vertices of the
//! same file uncompressed, or refused naming the feature.

use skinscope_import as import;
use skinscope_testkit::{RawGltf, repository};

#[test]
fn a_meshopt_file_decodes_with_the_feature_and_is_refused_by_name_without_it() {
    let compressed = repository().join("../shared/gltf-compressed/Fox_qc.glb");
    let plain = import::load(&repository().join("../shared/gltf-compressed/Fox_q.glb")).unwrap();
    let loaded = import::load(&compressed);
    if cfg!(feature = "meshopt") {
        let c = loaded.unwrap_or_else(|e| panic!("{e}"));
        let vertices = |c: &skinscope_core::character::Character| -> Vec<_> {
            (c.meshes.iter())
                .flat_map(|m| m.primitives.iter().map(|p| p.positions.len()))
                .collect()
        };
        // gltfpack's -c writes the same quantized vertices, compressed: as many as the
        // uncompressed file's JSON declares for its POSITION accessors.
        assert_eq!(vertices(&c), vertices(&plain));
        let raw = RawGltf::read_glb(&repository().join("../shared/gltf-compressed/Fox_q.glb"));
        let declared: u64 = (raw.json["meshes"].as_array().unwrap().iter())
            .flat_map(|m| m["primitives"].as_array().unwrap())
            .map(|p| raw.json["accessors"][p["attributes"]["POSITION"].as_u64().unwrap() as usize]["count"].as_u64().unwrap())
            .sum();
        assert_eq!(vertices(&c).iter().sum::<usize>() as u64, declared);
        let p = &c.meshes[0].primitives[0].positions;
        let q = &plain.meshes[0].primitives[0].positions;
        let worst = p
            .iter()
            .zip(q)
            .map(|(a, b)| a.distance(*b))
            .fold(0.0, f32::max);
        assert!(worst < 1e-4, "{worst}");
    } else {
        let message = loaded.unwrap_err().to_string();
        assert!(message.contains("Fox_qc.glb"), "{message}");
        assert!(message.contains("\"meshopt\" feature is off"), "{message}");
    }
}
