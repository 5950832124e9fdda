"""erratlas: exact inventory of error and diagnostic callsites in shipped bundles."""

__version__ = "0.1.0"
