//! Loading the course's fixtures and exercises from disk: TODO(fixtures helper).
