"""Files the app ships: the sample inventory a first-time user can load with one click."""
