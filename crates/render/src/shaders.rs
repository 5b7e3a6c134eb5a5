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
