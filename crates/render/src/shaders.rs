//! WGSL sources as the pipelines compile them. WGSL has no includes, so shared files are
//! prepended: `camera.wgsl` (the camera binding), `draw.wgsl` (one draw, one skinned vertex),
//! `morph.wgsl` (the one morph function) and `skinning.wgsl` (the one skinning function).

/// The shared skinning module, on its own.
pub const SKINNING: &str = include_str!("../../../shaders/skinning.wgsl");

/// Direct delta mush's runtime, after the skinning module it reads the palette of.
pub const DDM: &str = concat!(
    include_str!("../../../shaders/skinning.wgsl"),
    "\n",
    include_str!("../../../shaders/ddm.wgsl"),
);

/// The muscles' post-skin offset, after direct delta mush's module (whose vertex words it reads).
pub const MUSCLE: &str = concat!(
    include_str!("../../../shaders/skinning.wgsl"),
    "\n",
    include_str!("../../../shaders/ddm.wgsl"),
    "\n",
    include_str!("../../../shaders/muscle.wgsl"),
);

/// The ML deformer's corrective, after the muscles' module (whose uniform and words it reads).
pub const ML: &str = concat!(
    include_str!("../../../shaders/skinning.wgsl"),
    "\n",
    include_str!("../../../shaders/ddm.wgsl"),
    "\n",
    include_str!("../../../shaders/muscle.wgsl"),
    "\n",
    include_str!("../../../shaders/ml.wgsl"),
);

/// The shared morph module, on its own.
pub const MORPH: &str = include_str!("../../../shaders/morph.wgsl");

/// One draw and one skinned vertex, on their own.
pub const DRAW: &str = include_str!("../../../shaders/draw.wgsl");

/// The camera binding, on its own.
pub const CAMERA: &str = include_str!("../../../shaders/camera.wgsl");

/// Skinned meshes: shaded, wireframe, silhouette and shadow casters (`camera` + `draw` + `morph`
/// + `skinning` + `light` + `shadow` + `mesh`).
pub const MESH: &str = concat!(
    include_str!("../../../shaders/camera.wgsl"),
    "\n",
    include_str!("../../../shaders/draw.wgsl"),
    "\n",
    include_str!("../../../shaders/morph.wgsl"),
    "\n",
    include_str!("../../../shaders/skinning.wgsl"),
    "\n",
    include_str!("../../../shaders/light.wgsl"),
    "\n",
    include_str!("../../../shaders/shadow.wgsl"),
    "\n",
    include_str!("../../../shaders/mesh.wgsl"),
);

/// The sky, its irradiance and the tone maps, on their own (`camera` + `light`).
pub const LIGHT: &str = concat!(
    include_str!("../../../shaders/camera.wgsl"),
    "\n",
    include_str!("../../../shaders/light.wgsl"),
);

/// The shadow maps' lookups, on their own (`camera` + `shadow`).
pub const SHADOW: &str = concat!(
    include_str!("../../../shaders/camera.wgsl"),
    "\n",
    include_str!("../../../shaders/shadow.wgsl"),
);

/// The solid ground under the shadows (`camera` + `light` + `shadow` + `ground`).
pub const GROUND: &str = concat!(
    include_str!("../../../shaders/camera.wgsl"),
    "\n",
    include_str!("../../../shaders/light.wgsl"),
    "\n",
    include_str!("../../../shaders/shadow.wgsl"),
    "\n",
    include_str!("../../../shaders/ground.wgsl"),
);

/// The environment behind the character (`camera` + `light` + `background`).
pub const BACKGROUND: &str = concat!(
    include_str!("../../../shaders/camera.wgsl"),
    "\n",
    include_str!("../../../shaders/light.wgsl"),
    "\n",
    include_str!("../../../shaders/background.wgsl"),
);

/// An HDR environment's prefiltering at load, on its own.
pub const ENVIRONMENT: &str = include_str!("../../../shaders/environment.wgsl");

/// Bones overlay and grid (`camera` + `lines`).
pub const LINES: &str = concat!(
    include_str!("../../../shaders/camera.wgsl"),
    "\n",
    include_str!("../../../shaders/lines.wgsl"),
);

/// The GPU-equals-CPU compute check (`morph` + `skinning` + `skin_check`).
pub const SKIN_CHECK: &str = concat!(
    include_str!("../../../shaders/morph.wgsl"),
    "\n",
    include_str!("../../../shaders/skinning.wgsl"),
    "\n",
    include_str!("../../../shaders/skin_check.wgsl"),
);

/// The skin pass: every vertex morphed and skinned once a frame (`camera` + `draw` + `morph` +
/// `skinning` + `ddm` + `muscle` + `ml` + `skin_pass`).
pub const SKIN_PASS: &str = concat!(
    include_str!("../../../shaders/camera.wgsl"),
    "\n",
    include_str!("../../../shaders/draw.wgsl"),
    "\n",
    include_str!("../../../shaders/morph.wgsl"),
    "\n",
    include_str!("../../../shaders/skinning.wgsl"),
    "\n",
    include_str!("../../../shaders/ddm.wgsl"),
    "\n",
    include_str!("../../../shaders/muscle.wgsl"),
    "\n",
    include_str!("../../../shaders/ml.wgsl"),
    "\n",
    include_str!("../../../shaders/skin_pass.wgsl"),
);

/// The arrays' texture versions (`data_textures.wgsl`), for devices without storage buffers in
/// vertex shaders.
pub const DATA_TEXTURES: &str = include_str!("../../../shaders/data_textures.wgsl");

/// `source` with each `// data: begin NAME` ... `// data: end` block (an array's storage
/// binding and its accessors) replaced by `DATA_TEXTURES`'s block of the same name (a texture of
/// words and the same accessors): what a WebGL2 device compiles. A block `DATA_TEXTURES` lacks
/// is kept.
pub fn with_data_textures(source: &str) -> String {
    const BEGIN: &str = "// data: begin ";
    const END: &str = "// data: end";
    let block = |name: &str| -> Option<&str> {
        let start = DATA_TEXTURES.find(&format!("{BEGIN}{name}\n"))?;
        let end = DATA_TEXTURES[start..].find(END)? + start + END.len();
        Some(&DATA_TEXTURES[start..end])
    };
    let mut out = String::with_capacity(source.len() + DATA_TEXTURES.len());
    let mut rest = source;
    while let Some(start) = rest.find(BEGIN) {
        let Some(length) = rest[start..].find(END) else {
            break;
        };
        let end = start + length + END.len();
        let name = rest[start + BEGIN.len()..]
            .split([' ', '\n'])
            .next()
            .unwrap_or_default();
        out.push_str(&rest[..start]);
        out.push_str(block(name).unwrap_or(&rest[start..end]));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// Every composed source, by the file it ends with: what the shader test validates with naga.
pub const ALL: &[(&str, &str)] = &[
    ("camera.wgsl", CAMERA),
    ("draw.wgsl", DRAW),
    ("morph.wgsl", MORPH),
    ("skinning.wgsl", SKINNING),
    ("ddm.wgsl", DDM),
    ("muscle.wgsl", MUSCLE),
    ("ml.wgsl", ML),
    ("light.wgsl", LIGHT),
    ("shadow.wgsl", SHADOW),
    ("mesh.wgsl", MESH),
    ("ground.wgsl", GROUND),
    ("background.wgsl", BACKGROUND),
    ("environment.wgsl", ENVIRONMENT),
    ("lines.wgsl", LINES),
    ("skin_check.wgsl", SKIN_CHECK),
    ("skin_pass.wgsl", SKIN_PASS),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mesh_shader_reads_every_array_from_textures_where_there_are_no_storage_buffers() {
        let textured = with_data_textures(MESH);
        assert!(!textured.contains("var<storage"), "{textured}");
        for accessor in [
            "fn palette_entry",
            "fn draw_at",
            "fn skinned_vertex",
            "fn morph_active_at",
            "fn morph_tangent_delta",
        ] {
            assert_eq!(textured.matches(accessor).count(), 1, "{accessor}");
        }
        assert!(textured.contains("var palette_words: texture_2d<u32>"));
        // Sources without blocks are kept as they are.
        assert_eq!(with_data_textures(LINES), LINES);
    }
}
