"""ipywidgets apps: thin clients of the engine (they never decide a rule)."""
