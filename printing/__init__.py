"""Printing at exact physical size: unit tag sheets, anchor sheets and the lens-calibration board (PDF).

Qt's QPdfWriter draws vector PDFs: tags are filled paths in inches, so they print exactly as large
as asked when the printer prints at 100% ("actual size"); every page carries a 1-inch and a 25-mm
scale bar to check that with a ruler.
"""
