pub mod anim;
pub mod render;
