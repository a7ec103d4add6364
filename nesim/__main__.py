"""Allow ``python -m nesim``."""

from nesim.cli import main

if __name__ == "__main__":
    main()
