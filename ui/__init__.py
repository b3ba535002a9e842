"""The Streamlit app (`streamlit run ui/app.py`): thin pages over the `judge` library."""
