"""The demo's Qt drawing: the caption band, headless compositing of the video, and the demo window.

The story, director, examples and footage are Qt-free and live in :mod:`demo`."""
