"""Readers of rich document formats (PDF, HTML and saved web pages, DOCX) and Markdown headings.

Each turns one file into at most one Document whose sections carry page numbers and heading paths.
The third-party parsers are imported inside the readers, so importing the package stays cheap.
"""
