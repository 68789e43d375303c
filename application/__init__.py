"""The application layer: the use cases the pages call, between them and engine/store.

Ask a question, load / save / analyse an inventory, list and search history, record
feedback: each persists before and after its run (through the outbox when the database is
away) and yields the engine's events for a page to draw. Nothing here imports Streamlit, so
every use case is tested against the real embedded database with scripted models.
"""
