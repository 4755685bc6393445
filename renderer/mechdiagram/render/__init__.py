"""The render stage: the output formats (one class each, in one registry) and the drawing and pages they
write from a laid-out spec: SVG markup and its style sheets (keyframes), the HTML figure and its templates,
PNG and GIF pictures.  It writes the geometry the layout stage hands it."""
