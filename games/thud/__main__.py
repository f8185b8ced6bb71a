from __future__ import annotations

from games.thud.cli import main

raise SystemExit(main())
