//! UCI engine library (under construction).
