//! Every WGSL shader, as the pipelines compose it, parses and validates with naga on the CPU, so a
//! shader error fails `cargo test` without a GPU.

use std::collections::BTreeSet;

use skinscope::render::shaders;

fn validate(name: &str, source: &str) -> Result<naga::valid::ModuleInfo, String> {
    let module = naga::front::wgsl::parse_str(source)
        .map_err(|e| format!("{name}: parse error:\n{}", e.emit_to_string(source)))?;
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::default(),
    )
    .validate(&module)
    .map_err(|e| format!("{name}: validation error:\n{}", e.emit_to_string(source)))
}

#[test]
fn every_shader_parses_and_validates() {
    let mut failures = Vec::new();
    for (name, source) in shaders::ALL {
        if let Err(e) = validate(name, source) {
            failures.push(e);
        }
    }
    // The mesh shader as a device without storage buffers compiles it (WebGL2).
    let textured = shaders::with_data_textures(shaders::MESH);
    if let Err(e) = validate("mesh.wgsl with data_textures.wgsl", &textured) {
        failures.push(e);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_file_in_shaders_is_composed_and_checked() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/shaders");
    let on_disk: BTreeSet<String> = std::fs::read_dir(dir)
        .expect("shaders/ exists")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".wgsl"))
        .collect();
    let mut checked: BTreeSet<String> = shaders::ALL.iter().map(|(n, _)| n.to_string()).collect();
    // Its blocks replace the mesh shader's arrays where there are no storage buffers: checked
    // within that composition, every block of it used.
    checked.insert("data_textures.wgsl".into());
    let textured = shaders::with_data_textures(shaders::MESH);
    for block in shaders::DATA_TEXTURES.split("// data: begin ").skip(1) {
        let block = block.split("// data: end").next().unwrap();
        assert!(
            textured.contains(block),
            "a block of data_textures.wgsl is unused: {block}"
        );
    }
    assert_eq!(on_disk, checked, "add new shaders to render::shaders::ALL");
    // Each composed source ends with its own file's text.
    for (name, source) in shaders::ALL {
        let own = std::fs::read_to_string(format!("{dir}/{name}")).unwrap();
        assert!(
            source.ends_with(&own),
            "{name} is not composed from its file"
        );
    }
}

#[test]
fn a_broken_shader_is_caught() {
    // The check itself must be able to fail: a typo and a type error.
    assert!(shaders::SKINNING.contains("    return m;\n"));
    let typo = shaders::SKINNING.replace("    return m;\n", "    return m\n");
    assert!(validate("typo", &typo).is_err());
    let types = format!(
        "{}\nfn bad() -> f32 {{ return skin_matrix(0u, vec4<u32>(0u), vec4<f32>(1.0)); }}",
        shaders::SKINNING
    );
    assert!(validate("type error", &types).is_err());
}
