"""The site build's stages (tools/build_site.py is its command line; docs/build.md).

Each module is one stage, and says what goes in and what comes out:

- ``base``: the checkout's paths, our package's names, BuildError, file helpers;
- ``config``: the knobs a test or a benchmark may change (read by every stage at run time);
- ``vendor_patches``: the checked changes to pinned vendor files, as data;
- ``vendor``: the runtime files shipped from node_modules/, with those changes applied;
- ``page``: index.html filled from the game table, the first-visit tables, the release label;
- ``imports``: our package's files and import graph (what the page and the snapshot import);
- ``bytecode``: our modules compiled by the vendored Pyodide, and the page archive;
- ``stdlib``: the trimmed standard library;
- ``snapshot``: the build's memory snapshot and the packed wasm;
- ``boot``: the PyScript configs and the values stamped into web/pyodide-boot.mjs;
- ``service_worker``: web/sw.js stamped with the version, precache list and digests;
- ``assemble``: build(), every stage in its order.

Imports go one way: base, vendor_patches → config → the stages → assemble.
"""
