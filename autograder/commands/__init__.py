"""One module per CLI command (``grade``, ``build``, ``check-zip``, ``demo``, ``template``), each with ``main(argv)``.

Commands sit on top: they may import every other folder; nothing but ``cli``, ``batch`` and other
commands imports them.
"""
