"""`python -m analyzer.cli`: the console script."""

from analyzer.cli import main

if __name__ == "__main__":  # importing every module of the package (the fuzz runner's warm-up) runs nothing
    main()
