//! WGSL sources as the pipelines compile them. WGSL has no includes, so shared files are
//! prepended: `camera.wgsl` (the camera binding), `morph.wgsl` (the one morph function) and
//! `skinning.wgsl` (the one skinning function).

/// The shared skinning module, on its own.
pub const SKINNING: &str = include_str!("../../shaders/skinning.wgsl");

/// The shared morph module, on its own.
pub const MORPH: &str = include_str!("../../shaders/morph.wgsl");

/// The camera binding, on its own.
pub const CAMERA: &str = include_str!("../../shaders/camera.wgsl");

/// Skinned meshes: shaded, wireframe and silhouette (`camera` + `morph` + `skinning` + `mesh`).
pub const MESH: &str = concat!(
    include_str!("../../shaders/camera.wgsl"),
    "\n",
    include_str!("../../shaders/morph.wgsl"),
    "\n",
    include_str!("../../shaders/skinning.wgsl"),
    "\n",
    include_str!("../../shaders/mesh.wgsl"),
);

/// Bones overlay and grid (`camera` + `lines`).
pub const LINES: &str = concat!(
    include_str!("../../shaders/camera.wgsl"),
    "\n",
    include_str!("../../shaders/lines.wgsl"),
);

/// The GPU-equals-CPU compute check (`morph` + `skinning` + `skin_check`).
pub const SKIN_CHECK: &str = concat!(
    include_str!("../../shaders/morph.wgsl"),
    "\n",
    include_str!("../../shaders/skinning.wgsl"),
    "\n",
    include_str!("../../shaders/skin_check.wgsl"),
);

/// Every composed source, by the file it ends with: what the shader test validates with naga.
pub const ALL: &[(&str, &str)] = &[
    ("camera.wgsl", CAMERA),
    ("morph.wgsl", MORPH),
    ("skinning.wgsl", SKINNING),
    ("mesh.wgsl", MESH),
    ("lines.wgsl", LINES),
    ("skin_check.wgsl", SKIN_CHECK),
];
