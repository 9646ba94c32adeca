"""Analysis and pictures: what a position holds (``position.py``), boards as SVG (``svg.py``), charts (``figures.py``)."""
