//! Every integration test of the application in one binary: the application and its dependencies
//! are linked once, not once per file (each such binary is 100-140 MB unoptimised, and fifty of
//! them filled a CI machine's disk). Each module holds the tests of one capability. The soak test
//! is a binary of its own (tests/soak.rs): it counts allocations with its own global allocator.

mod common;

mod architecture;
mod bone_shapes;
mod builtin;
mod check;
mod cli;
mod cli_reference;
mod compressed;
mod compression;
mod crowd;
mod data_textures;
mod ddm;
mod debug_views;
mod diff;
mod dqs;
mod drivers;
mod environment;
mod fix;
mod formats_doc;
mod given_files;
mod golden;
mod gpu;
mod graph;
mod guide_screenshots;
mod hostile;
mod in_use;
mod influences;
mod layers;
mod locomotion;
mod match_candidates;
mod materials;
mod ml_deformer;
mod mocap;
mod morph;
mod morph_limits;
mod motion_paths;
mod muscles;
mod new_user;
mod onion_skins;
mod over_time_window;
mod physics;
mod pose_request;
mod readout;
mod recipes;
mod record;
mod render;
mod retarget;
mod retarget_export;
mod retarget_limbs;
mod retarget_map;
mod rewind;
mod scenes;
mod shaders;
mod shadows;
mod skeleton_gltf;
mod skin_pass;
mod stage_ghosts;
mod steering;
mod user_reports;
mod validator;
mod viewer_ui;
mod window;
