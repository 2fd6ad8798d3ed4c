"""The bundled data packs (installed as ``bagm.datasheets``)."""
