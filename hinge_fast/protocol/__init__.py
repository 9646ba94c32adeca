"""The engine line protocol (UHP-style): ``server`` answers it (``hinge-fast engine``),
``client`` drives any program that speaks it (``Engine.popen``)."""
