OPENAPI = {"openapi": "3.1.0", "info": {"title": "Tabletop companion", "version": "0.1.0"}, "paths": {}}
