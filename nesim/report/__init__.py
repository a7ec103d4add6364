"""HTML reports: ``build_report(dataset_dirs, out_file, progress=None)`` writes one self-contained
page (figures embedded as PNG data URIs, inline CSS and JS) from one or more datasets."""

from nesim.report.build import build_report

__all__ = ["build_report"]
