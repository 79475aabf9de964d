"""``python -m regelverk`` runs the command line."""

from regelverk.cli import main

raise SystemExit(main())
