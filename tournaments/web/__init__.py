"""The tournament web room: views, URL confs and forms, by audience (public, referee,
organiser, API, downloads)."""
