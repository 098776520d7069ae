"""Sign-in through the school's ENT over CAS: connectors, links, the CAS flow (docs/deploy.md)."""
