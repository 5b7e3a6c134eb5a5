//! WGSL sources as the pipelines compile them: `skinning.wgsl` (the one skinning function)
//! followed by each pipeline's own file.

/// The shared skinning module, on its own.
pub const SKINNING: &str = include_str!("../../shaders/skinning.wgsl");

/// The GPU-equals-CPU compute check (`skinning.wgsl` + `skin_check.wgsl`).
pub const SKIN_CHECK: &str = concat!(
    include_str!("../../shaders/skinning.wgsl"),
    "\n",
    include_str!("../../shaders/skin_check.wgsl"),
);

/// Every composed source, by the file it ends with: what the shader test validates with naga.
pub const ALL: &[(&str, &str)] = &[("skinning.wgsl", SKINNING), ("skin_check.wgsl", SKIN_CHECK)];
