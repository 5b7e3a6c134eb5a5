pub mod anim;
