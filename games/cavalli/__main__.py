from __future__ import annotations

from games.cavalli.cli import main

raise SystemExit(main())
